"""The puzzle generator: valid, seeded, shift-like puzzles, and the week."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import EngineError
from engine.game import Game
from engine.generator import generate, week
from engine.notation import parse_record
from engine.position import BLUE, ORANGE
from engine.solver import solve

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("size,turns,goal,card", [
    (5, 1, "unload", False), (5, 2, "score", False), (6, 2, "appcons", False),
    (6, 3, "unload", True), (7, 2, "score", True),
])
def test_it_generates_valid_puzzles(size, turns, goal, card):
    for gen in generate(size, turns, goal, card, seed=7, count=2):
        rec = parse_record(gen.record)
        assert rec.limit == turns and rec.goal.kind == goal and rec.start.n == size
        start = rec.start
        assert start.side == BLUE and not start.cards[ORANGE] and not start.points[ORANGE]
        assert start.cores[BLUE] and start.cores[ORANGE] and start.empty  # a shift in progress
        again = solve(gen.record)  # proven again, from the record text alone
        assert again.valid and again.fewest == turns
        if card:
            assert again.needs_card
        game = Game.from_record(gen.record)
        for token in again.line:
            game.play(token)
        assert game.solved


def test_it_is_seeded():
    a = [g.record for g in generate(6, 2, "unload", seed=11, count=2)]
    b = [g.record for g in generate(6, 2, "unload", seed=11, count=2)]
    c = [g.record for g in generate(6, 2, "unload", seed=12, count=2)]
    assert a == b and a != c


def test_it_makes_a_week_by_the_schedule():
    days = week("2026-11-30", seed=3)
    assert [d for d, _ in days] == ["2026-11-30"] + [f"2026-12-0{i}" for i in range(1, 7)]
    kinds = []
    for i, (_, gen) in enumerate(days):
        rec = parse_record(gen.record)
        size = rec.start.n
        assert size == (5, 5, 6, 6, 7, 8, 8)[i]
        assert rec.limit in ((1, 2), (1, 2), (2, 3), (2, 3), (3,), (3, 4), (3, 4))[i]
        assert gen.solution.valid
        if i >= 5:
            assert gen.solution.needs_card
        kinds.append(rec.goal.kind)
    assert len(set(kinds)) == 3
    assert all(a != b for a, b in zip(kinds, kinds[1:], strict=False))


def test_a_week_asked_again_is_the_same_week_in_a_list_of_its_own():
    """The last few weeks are kept (engine.generator._week): asked again, a week is the one a
    fresh generation gives, and changing the list a caller got changes no later answer."""
    from engine import generator

    def puzzles(days):  # all but the proof's time, which is measured each generation
        return [(date, gen.record, gen.interest, gen.attempts, gen.solution.line,
                 gen.solution.nodes) for date, gen in days]

    first = week("2026-11-30", seed=3)
    assert week("2026-11-30", seed=3) == first
    assert puzzles(generator._week.__wrapped__("2026-11-30", 3)) == puzzles(first)
    first.clear()
    assert len(week("2026-11-30", seed=3)) == 7
    with pytest.raises(EngineError, match="Monday"):  # refused every time, never kept
        week("2026-12-01")
    with pytest.raises(EngineError, match="Monday"):
        week("2026-12-01")


def test_it_rejects_bad_arguments():
    with pytest.raises(EngineError, match="Monday"):
        week("2026-12-01")
    with pytest.raises(EngineError, match="goal"):
        generate(5, 1, "build")
    out = subprocess.run([sys.executable, "-m", "engine", "generate", "--size", "9",
                          "--turns", "2", "--goal", "unload"], cwd=REPO, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and "error" in json.loads(out.stdout)


def test_the_command_prints_records_that_solve():
    out = subprocess.run([sys.executable, "-m", "engine", "generate", "--size", "5",
                          "--turns", "2", "--goal", "appcons", "--seed", "4"], cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout
    rec = parse_record(out.stdout)
    assert rec.headers["Fewest"] == "2" and "ProofNodes" in rec.headers
    assert solve(out.stdout).valid
