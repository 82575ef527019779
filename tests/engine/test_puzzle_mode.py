"""rules.md 22-26 and notation.md fine points 2, 4 and 6: puzzle runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine import EngineError, Game
from tests.engine.support import REPO, field, pos, replay


def puzzle(start: str, goal: str, turns: int, moves: str = "") -> Game:
    return replay(f'[Start "{start}"]\n[Goal "{goal}"]\n[Turns "{turns}"]\n{moves}')


I3 = pos("...../...../...../...../BBB..", orange="-", turns=12)


def test_only_blue_moves() -> None:
    # rules.md 22: the side to move stays b; the turn count still goes up
    game = puzzle(I3, "unload:O", 3, "e a")
    assert field(game, 1) == "b" and field(game, 9) == "14"
    assert game.ply == 2


def test_orange_cores_are_obstacles_and_reroute_targets() -> None:
    start = pos("...../...../...../...../BBBO.", blue="R", orange="-")
    game = puzzle(start, "unload:I", 1, "Rd1+a1b1c1d1")
    assert game.solved and game.result() == {"winner": "blue", "blue": 8, "orange": 0}


@pytest.mark.parametrize("bad", [
    pos("...../...../...../...../.....", orange="S"),
    pos("...../...../...../...../.....", orange="-", side="o"),
    pos("...../...../...../...../.....", orange="-", orange_shelf="O"),
    pos("...../...../...../...../.....", orange="-", orange_points=1),
])
def test_a_puzzle_start_has_blue_to_move_and_a_bare_orange(bad: str) -> None:
    with pytest.raises(EngineError):
        puzzle(bad, "unload:I", 2)


def test_a_puzzle_without_start_is_an_error() -> None:
    # lead ruling (3): the default start gives Orange cards
    with pytest.raises(EngineError, match="Start"):
        replay('[Goal "unload:I"]\n[Turns "2"]\n')


@pytest.mark.parametrize("goal, turns", [("score:0", 2), ("appcons:0", 2), ("unload:I", 0),
                                         ("unload:X", 2), ("score:-1", 2), ("win:1", 2),
                                         ("score:", 2), ("unload:I", "x"), ("unload:II", 2)])
def test_goal_and_turns_must_be_well_formed(goal: str, turns) -> None:
    with pytest.raises(EngineError):
        puzzle(I3, goal, turns)


def test_any_subset_of_cards_and_a_shelf_shape_scores_its_value_only() -> None:
    # rules.md 23
    start = pos("...../...../...../...../BBB..", blue="P", orange="-", blue_shelf="i")
    game = puzzle(start, "score:6", 1, "d+a1b1c1d1")
    assert game.solved and field(game, 7) == "6" and field(game, 5) == "i"
    start = pos("...../...../...../...../BBB..", blue="-", orange="-", blue_shelf="I")
    game = puzzle(start, "score:7", 2, "d+a1b1c1d1")
    assert not game.solved and not game.over  # 6 < 7: goes on


def test_goals_are_checked_after_each_unload_and_solve_at_once() -> None:
    # rules.md 24; fine point 6: score and appcons count only what is gained in the puzzle
    start = pos("...../...../...../...../BBB..", orange="-", blue_points=40)
    game = puzzle(start, "score:8", 3, "d+a1b1c1d1")
    assert game.solved and game.over and game.legal() == []
    # lead ruling (2): "blue" is the position's points field, Start points included
    assert game.result() == {"winner": "blue", "blue": 48, "orange": 0}
    with pytest.raises(EngineError):
        game.play("a")
    game = puzzle(start, "score:9", 3, "d+a1b1c1d1")
    assert not game.solved
    game = puzzle(start, "appcons:1", 3, "d+a1b1c1d1")
    assert game.solved
    game = puzzle(start, "unload:O", 3, "d+a1b1c1d1")
    assert not game.solved and not game.over


def test_the_turn_limit_counts_puzzle_turns_whatever_the_start_count() -> None:
    # rules.md 26, fine points 4 and 6
    game = puzzle(I3, "unload:O", 2, "a b")
    assert game.over and not game.solved
    assert game.result() == {"winner": None, "blue": 0, "orange": 0}
    with pytest.raises(EngineError) as info:
        puzzle(I3, "unload:O", 2, "a b c")
    assert info.value.at == 2


def test_out_of_turns_when_no_turn_can_be_taken() -> None:
    # fine point 2: over from the beginning when the bay is full or Blue has no action
    full = pos("BBBBB/BBBBB/BBBBB/BBBBB/BBBBB", orange="-", blue_points=3)
    game = puzzle(full, "unload:O", 2)
    assert game.over and game.result() == {"winner": None, "blue": 3, "orange": 0}
    stuck = pos("BBBB./BBBB./BBBB./BBBB./BBBB.", blue="-", orange="-", lock="e")
    assert puzzle(stuck, "unload:O", 2).over
    # Blue's lock on the last open column leaves no action: out of turns at once
    game = puzzle(pos("BBBB./BBBB./BBBB./BBBB./BBBB.", blue="L", orange="-"),
                  "unload:O", 3, "Le")
    assert game.over and game.ply == 1 and not game.solved


def test_no_pass_in_a_puzzle() -> None:
    game = puzzle(pos("BBBB./BBBB./BBBB./BBBB./BBBB.", blue="L", orange="-", lock="e"),
                  "unload:O", 3)
    assert "-" not in game.legal()
    game.play("Le")  # releases e
    assert game.legal() == ["e"]


def test_resign_in_a_puzzle() -> None:
    # lead ruling (1): over, no winner, blue = Blue's points, orange 0
    start = pos("...../...../...../...../BBB..", orange="-", blue_points=5)
    game = puzzle(start, "unload:I", 2, "a resign")
    assert game.over and game.legal() == []
    assert game.result() == {"winner": None, "blue": 5, "orange": 0}
    with pytest.raises(EngineError):
        puzzle(start, "unload:I", 2, "resign a")


def test_puzzle_records_replay_through_the_command_line() -> None:
    start = pos("...../...../...../...../BBB..", orange="-", blue_points=2, turns=30)
    record = f'[Start "{start}"]\n[Goal "unload:I"]\n[Turns "2"]\na d+a1b1c1d1\n'
    out = subprocess.run([sys.executable, "-m", "engine", "replay"], cwd=REPO, input=record,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert json.loads(out.stdout) == {
        "position": pos("...../...../...../B..../xxxx.", orange="-", blue_shelf="I",
                        blue_points=10, turns=32),
        "legal": [], "over": True, "result": {"winner": "blue", "blue": 10, "orange": 0}}
