"""Differential test: the pruned solver agrees with an unpruned breadth-first search."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.geometry import SHAPE_ORDER
from engine.notation import Goal, format_position
from engine.position import BLUE, NO_LOCK, Position
from engine.solver import solve
from tests.engine.solver_reference import bfs_fewest


@st.composite
def puzzles(draw):
    n = draw(st.sampled_from([5, 5, 5, 6]))
    rules = draw(st.sampled_from(["0.92", "0.92", "0.89", "0.88"]))
    p = Position(n, rules)
    g = p.g
    boards = [0, 0, 0]
    for x in range(n):
        height = draw(st.integers(0, n))
        for y in range(height):
            kind = draw(st.sampled_from([0, 0, 0, 1, 1, 2]))
            boards[kind] |= 1 << g.cell(x, y)
        p.heights[x] = height
    p.cores = [boards[0], boards[1]]
    p.empty = boards[2]
    p._appcons = [None, None]
    hand = draw(st.integers(0, 31))
    p.cards = [hand, 0]
    p.lock = draw(st.sampled_from([NO_LOCK, NO_LOCK, *range(2 * n)]))
    p.gold = [draw(st.integers(0, 127)), 0]
    p.steel = [0, 0]
    kind = draw(st.sampled_from(["unload", "score", "appcons"]))
    if kind == "unload":
        goal = Goal("unload", shape=draw(st.integers(0, 6)))
    elif kind == "score":
        goal = Goal("score", amount=draw(st.integers(1, 14)))
    else:
        goal = Goal("appcons", amount=draw(st.integers(1, 2)))
    cards = hand.bit_count()
    limit = draw(st.integers(1, 3 if cards <= 2 and n == 5 else 2))
    return p, goal, limit


def _record(p: Position, goal: Goal, limit: int) -> str:
    return f'[Start "{format_position(p)}"]\n[Goal "{goal}"]\n[Turns "{limit}"]\n'


# SOLVER_EXAMPLES=5000 for a one-off long run (docs/puzzles.md records the counts).
EXAMPLES = int(os.environ.get("SOLVER_EXAMPLES", "400"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_it_agrees_with_breadth_first_search(case):
    p, goal, limit = case
    record = _record(p, goal, limit)
    sol = solve(record)
    expected = bfs_fewest(p, goal, limit)
    assert sol.fewest == expected, record
    assert sol.solvable == (expected is not None)
    if expected is not None:
        bare = bfs_fewest(p, goal, limit, cards=False)
        assert sol.needs_card == (bare is None), record
        game = Game.from_record(record)
        for token in sol.line:
            game.play(token)
        assert game.solved and game.ply == expected
    else:
        assert sol.line is None and not sol.needs_card


def test_it_knows_the_shape_names():
    assert SHAPE_ORDER == "OTJLSZI" and BLUE == 0
