"""Hand-made puzzles with known answers, bad puzzle records, and the solve command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import EngineError
from engine.game import Game
from engine.solver import solve

REPO = Path(__file__).resolve().parents[2]


def record(start: str, goal: str, turns: int, tokens: str = "") -> str:
    return f'[Start "{start}"]\n[Goal "{goal}"]\n[Turns "{turns}"]\n{tokens}\n'


def replays(text: str, line: list[str], fewest: int) -> bool:
    game = Game.from_record(text)
    for token in line:
        game.play(token)
    return game.solved and game.ply == fewest


CASES = [
    # name, start, goal, turns, (solvable, fewest, needs_card, valid)
    ("solvable in 1 with a limit of 2 is invalid",
     "...../...../...../...../BBB.. b - - - - - 0 0 0 0.92", "unload:I", 2,
     (True, 1, False, False)),
    ("only Re-Routing solves it",
     "...../...../...../...../BBBO. b R - - - - 0 0 0 0.92", "unload:I", 1,
     (True, 1, True, True)),
    ("only a Station Rotation (right) solves it",
     "...../B..../B..../B..../OB... b S - a - - 0 0 0 0.92", "unload:I", 1,
     (True, 1, True, True)),
    ("a new I scores 6 + Gold 2",
     "...../...../...../...../BBB.. b - - - - - 0 0 0 0.92", "score:8", 1,
     (True, 1, False, True)),
    ("the shelf holds I, so no Gold bonus: 6 < 7",
     "...../...../...../...../BBB.. b - - - I - 6 0 0 0.92", "score:7", 1,
     (False, None, False, False)),
    ("a Steel chit on the shelf also means no Gold bonus",
     "...../...../...../...../BBB.. b - - - i - 0 0 0 0.92", "score:7", 1,
     (False, None, False, False)),
    ("no turn can be taken: the one free cell is in the locked column",
     "OOOO./BOOOx/BOOOx/BOOOx/BOOOx b - - e - - 0 0 0 0.92", "unload:I", 1,
     (False, None, False, False)),
    ("the same bay unlocked: drop and unload",
     "OOOO./BOOOx/BOOOx/BOOOx/BOOOx b - - - - - 0 0 0 0.92", "unload:I", 1,
     (True, 1, False, True)),
    ("Lockdown unloads without filling the last cell",
     "BBOO./BBOOx/OOOOO/BBBBx/OOOOx b L - - - - 0 0 0 0.92", "appcons:2", 2,
     (True, 2, True, True)),
    ("two turns to build an L",
     "...../...../...../...../BB... b - - - - - 0 0 0 0.92", "unload:L", 2,
     (True, 2, False, True)),
    ("two AppCons need eight cores: four turns are too few from none",
     "...../...../...../...../..... b SLPDR - - - - 0 0 0 0.92", "appcons:2", 4,
     (False, None, False, False)),
    # The last turn: a card that adds no Blue core can still make an AppCon by letting the
    # Blue cores settle together (docs/puzzles.md, B4 looks at cells, not at core counts).
    ("last turn: a row Purge lets Blue cores settle into an I",
     "B..../B..../O..../B..../B.... b P - - - - 0 0 0 0.92", "unload:I", 1,
     (True, 1, True, True)),
    ("last turn: a row Purge makes the one AppCon needed",
     "B..../B..../O..../B..../B.... b LPD - - - - 0 0 0 0.92", "appcons:1", 1,
     (True, 1, True, True)),
    ("last turn: Cargo Damage on two Orange cores in a column makes an I",
     "B...../B...../O...../O...../B...../B..... b D - - - - 0 0 0 0.92", "unload:I", 1,
     (True, 1, True, True)),
    ("last turn: Cargo Damage on a row pair settles two columns into an O",
     "...../...../BB.../OO.../BB... b D - - - - 0 0 0 0.89", "unload:O", 1,
     (True, 1, True, True)),
    ("last turn: a Rotation closes the gap in a row of Blue cores (c is locked)",
     "...../...../...../...../BB.BB b S - c - - 0 0 0 0.92", "unload:I", 1,
     (True, 1, True, True)),
    ("two turns: a drop and a row Purge, in either order",
     "...../B..../O..../B..../B.... b P - - - - 0 0 0 0.92", "unload:I", 2,
     (True, 2, True, True)),
    ("score over two unloads",
     "...../...../B..../B..../BB.BB b - - - - - 0 0 0 0.92", "score:13", 2,
     (True, 2, False, True)),
]


@pytest.mark.parametrize("name,start,goal,turns,expect", CASES, ids=[c[0] for c in CASES])
def test_it_solves_hand_made_puzzles(name, start, goal, turns, expect):
    text = record(start, goal, turns)
    sol = solve(text)
    assert (sol.solvable, sol.fewest, sol.needs_card, sol.valid) == expect, sol
    if sol.solvable:
        assert len(sol.line) == sol.fewest
        assert replays(text, sol.line, sol.fewest)
    else:
        assert sol.line is None


def test_it_uses_the_limit_argument():
    text = record("...../...../...../...../BB... b - - - - - 0 0 0 0.92", "unload:L", 2)
    assert solve(text, limit=1).solvable is False
    assert solve(text, limit=3).fewest == 2 and not solve(text, limit=3).valid


def test_it_solves_a_game_too():
    game = Game.from_record(record("...../...../...../...../BB... b R - - - - 0 0 0 0.92",
                                   "unload:L", 2))
    assert solve(game).fewest == 2


BAD = [
    ("Orange to move", record("...../...../...../...../BB... o - - - - - 0 0 0 0.92",
                              "unload:L", 2), "Blue to move"),
    ("Orange holding cards", record("...../...../...../...../BB... b - S - - - 0 0 0 0.92",
                                    "unload:L", 2), "Orange holds no cards"),
    ("a floating module", record("...../...../...../B..../.B... b - - - - - 0 0 0 0.92",
                                 "unload:L", 2), "floats"),
    ("an unknown goal", record("...../...../...../...../BB... b - - - - - 0 0 0 0.92",
                               "build:L", 2), "goal"),
    ("a limit of 0", record("...../...../...../...../BB... b - - - - - 0 0 0 0.92",
                            "unload:L", 0), "Turns"),
    ("an illegal turn in the record",
     record("...../...../...../...../BB... b - - - - - 0 0 0 0.92", "unload:L", 2, "S>"),
     "illegal"),
    ("not a puzzle", '[Size "5"]\n', "Goal"),
]


@pytest.mark.parametrize("name,text,words", BAD, ids=[b[0] for b in BAD])
def test_it_rejects_bad_puzzle_records(name, text, words):
    with pytest.raises(EngineError, match=words):
        solve(text)
    out = subprocess.run([sys.executable, "-m", "engine", "solve"], input=text, cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    error = json.loads(out.stdout)
    assert words.lower() in error["error"].lower()
    assert set(error) == {"error", "at"}


def test_it_names_the_bad_turn_index():
    text = record("...../...../...../...../BB... b - - - - - 0 0 0 0.92", "unload:L", 2, "a S>")
    out = subprocess.run([sys.executable, "-m", "engine", "solve"], input=text, cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and json.loads(out.stdout)["at"] == 1
