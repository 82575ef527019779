"""Helpers shared by the engine tests: random starts, random turns, example files."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from tests.engine.reference import LETTERS, SHAPES, RefGame, State

REPO = Path(__file__).resolve().parents[2]
SHARED = (REPO / ".." / "shared").resolve()
EXAMPLES = SHARED / "spec" / "examples"
SIZES = (5, 6, 7, 8)
RULES = ("0.88", "0.89", "0.92")


def examples(name: str) -> list[dict]:
    """The lines of a worked-example file; fail under CI if it is missing, else skip."""
    path = EXAMPLES / name
    if not path.exists():
        message = f"worked examples not found at {path} (shared/ must sit beside the repo)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def random_start(rng: random.Random, n: int | None = None, rules: str | None = None,
                 fill: float | None = None, puzzle: bool = False) -> str:
    """A random well-formed position (often nearly full), as text."""
    n = n or rng.choice(SIZES)
    rules = rules or rng.choice(RULES)
    fill = rng.choice((0.3, 0.6, 0.85, 0.95, 1.0)) if fill is None else fill
    st = State(n, rules)
    kinds = rng.choice(("BOx", "BBOx", "BOOxx", "Bx", "Ox", "x"))
    for x in range(n):
        h = min(n, max(0, round(n * fill) + rng.randint(-2, 1)))
        for y in range(h):
            st.grid[x][y] = rng.choice(kinds)
    cards = "SLPDR"

    def hand():
        return "".join(c for c in cards if rng.random() < rng.choice((0.0, 0.3, 0.7, 1.0)))

    st.hands = {"b": hand(), "o": "" if puzzle else hand()}
    corridors = list(LETTERS[:n]) + [str(i) for i in range(1, n + 1)]
    st.lock = rng.choice(corridors) if rng.random() < 0.4 else None
    for side in ("b",) if puzzle else ("b", "o"):
        for s in SHAPES:
            r = rng.random()
            if r < 0.15:
                other = st.shelf["o" if side == "b" else "b"].get(s)
                st.shelf[side][s] = "steel" if other == "gold" else "gold"
            elif r < 0.25:
                st.shelf[side][s] = "steel"
    st.points = {"b": rng.randint(0, 30), "o": 0 if puzzle else rng.randint(0, 30)}
    st.turns = rng.randint(0, 60)
    st.side = "b" if puzzle else rng.choice("bo")
    return st.format()


def choose_turn(rng: random.Random, ref: RefGame, legal: list[str]) -> str:
    """A random whole turn (Phase 1 token, maybe an unload) among the legal ones."""
    drops = [t for t in legal if len(t) == 1 and t != "-"]
    cards = [t for t in legal if t not in drops]
    if drops and (not cards or rng.random() < 0.75):
        phase1 = rng.choice(drops)
    else:
        phase1 = rng.choice(cards or drops)
    after = ref.state.clone()
    after.apply_phase1(phase1)
    options = after.unloads()
    if options and rng.random() < 0.7:
        cells, _ = rng.choice(options)
        pieces = [cells[i:i + 2] for i in range(0, 8, 2)]
        rng.shuffle(pieces)  # readers accept any order
        return phase1 + "+" + "".join(pieces)
    return phase1


def puzzle_goal(rng: random.Random) -> tuple[str, tuple]:
    kind = rng.choice(("unload", "score", "appcons"))
    if kind == "unload":
        s = rng.choice(SHAPES)
        return f"unload:{s}", ("unload", s)
    k = rng.randint(1, 12) if kind == "score" else rng.randint(1, 3)
    return f"{kind}:{k}", (kind, k)


def pos(board: str, side: str = "b", blue: str = "SLPDR", orange: str = "SLPDR",
        lock: str = "-", blue_shelf: str = "-", orange_shelf: str = "-", blue_points: int = 0,
        orange_points: int = 0, turns: int = 0, rules: str = "0.92") -> str:
    """A position's text from its fields; the board rows top first, separated by '/'."""
    return " ".join([board, side, blue or "-", orange or "-", lock, blue_shelf, orange_shelf,
                     str(blue_points), str(orange_points), str(turns), rules])


def empty_board(n: int) -> str:
    return "/".join(["." * n] * n)


def game_at(position: str):
    """A Game from a position text (imported late so collection never fails on it)."""
    from engine import Game

    return Game.from_position(position)


def replay(record: str):
    from engine import Game

    return Game.from_record(record)


def board_of(game) -> str:
    from engine import format_position

    return format_position(game.position).split(" ")[0]


def field(game, i: int) -> str:
    from engine import format_position

    return format_position(game.position).split(" ")[i]
