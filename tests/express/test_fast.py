"""The bot-facing fast API: random playouts and their tokens."""

from __future__ import annotations

import random

import pytest

from express import ExpressError, Game, Position, play, start_position
from express import events as ev
from express.fast import playout, random_step
from express.rules import RULES_VERSIONS


@pytest.mark.parametrize("rules", RULES_VERSIONS)
def test_random_steps_are_legal_decisions_that_replay_to_the_same_position(rules: str) -> None:
    """In each rules version, every token a playout makes is legal in that version (``play``
    checks it against the game's own rule 46) and replays to the same position."""
    rng = random.Random(11)
    engineer_uncouples = 0
    for _ in range(20):
        p = start_position(rng.choice((2, 3, 4)), rng.getrandbits(64), rules)
        q = p.copy()
        while not p.over:
            phase, seats = p.phase, p.to_move()
            seat = p.turn_seat() if phase == "a" else 0
            token = random_step(p, rng)
            if phase == "p":
                for seat, plan in zip(seats, token.split(), strict=True):
                    play(q, plan, seat)
            else:
                engineer_uncouples += ".d" in token and q.chars[seat - 1] == "En"
                play(q, token)
            assert q == p, token
        assert p.rules == rules
    assert engineer_uncouples > 20  # the Engineer's branch was exercised


def _engineer_uncouple_turns(rules: str, games: int, seed: int) -> list[tuple[Position, str]]:
    """(position before, token) of every Engineer uncouple in random playouts."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        p = start_position(3, rng.getrandbits(64), rules)
        while not p.over:
            before = p.copy()
            token = random_step(p, rng)
            if before.phase == "a" and ".d" in token and \
                    before.chars[before.turn_seat() - 1] == "En":
                out.append((before, token))
    return out


def test_x01_playouts_use_the_engineers_any_colour_and_x02_playouts_never_do() -> None:
    """The two versions' playouts differ where rule 46 differs: some x0.1 Engineer
    uncouples are refused under x0.2; every x0.2 one takes only the factory's colour."""
    refused_in_x02 = 0
    for before, token in _engineer_uncouple_turns("x0.1", 30, 5):
        other = before.copy()
        other.rules = "x0.2"
        try:
            play(other, token)
        except ExpressError:
            refused_in_x02 += 1
    assert refused_in_x02 > 0
    turns = _engineer_uncouple_turns("x0.2", 30, 5)
    assert turns
    for before, token in turns:
        seat = before.turn_seat()
        after = before.copy()
        events: list[ev.Event] = []
        play(after, token, None, events)  # legal in x0.2
        colour = before.board[after.loc[seat - 1]][1]
        off = [e for e in events if isinstance(e, ev.Uncoupled)]
        assert len(off) == 1 and set(off[0].cars) == {colour}, token


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
