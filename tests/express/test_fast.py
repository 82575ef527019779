"""The bot-facing fast API: random playouts and their tokens."""

from __future__ import annotations

import random

from express import Game, play, start_position
from express.fast import playout, random_step


def test_random_steps_are_legal_decisions_that_replay_to_the_same_position() -> None:
    rng = random.Random(11)
    for _ in range(20):
        p = start_position(rng.choice((2, 3, 4)), rng.getrandbits(64))
        q = p.copy()
        while not p.over:
            phase, seats = p.phase, p.to_move()
            token = random_step(p, rng)
            if phase == "p":
                for seat, plan in zip(seats, token.split(), strict=True):
                    play(q, plan, seat)
            else:
                play(q, token)
            assert q == p, token


def test_a_playout_ends_the_game_and_scores_it() -> None:
    rng = random.Random(2)
    p = start_position(4, 7)
    result = playout(p, rng)
    assert p.over and len(result.scores) == 4 and result.winners


def test_a_playout_from_a_game_in_progress_leaves_the_game_alone() -> None:
    g = Game.new(3, 5)
    g.play("Lo")
    before = g.position.copy()
    playout(g.position.copy(), random.Random(1))
    assert g.position == before


def test_uniform_plans_are_any_three_different_cards_and_playouts_use_them() -> None:
    from express.fast import uniform_plan
    from express.rules import CARDS

    rng = random.Random(3)
    p = start_position(2, 9)
    seen = set()
    for _ in range(400):
        plan = uniform_plan(p, 1, rng)
        assert len(set(plan)) == 3 and set(plan) <= set(CARDS)
        seen.update(plan)
    assert seen == set(CARDS)  # B, C and D cards too, whatever the engine
    q = start_position(3, 4)
    result = playout(q, rng, uniform_plan)
    assert q.over and len(result.scores) == 3


def test_bench_reports_rates_per_cpu_second_for_both_policies() -> None:
    from express.bench import run_bench

    for fast in (False, True):
        for usable in (False, True):
            out = run_bench(0.05, 1, 2, usable, fast)
            assert out["cpu_seconds"] >= 0.05 and out["turns/s"] > 0
            assert out["policy"] == ("fast" if fast else "legal")
            assert out["plans"] == ("usable" if usable else "uniform")
