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
