"""Helpers shared by the Cargo Express tests: the examples, the CLI, games set up by hand."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from express import Game, Position, format_position, parse_position
from express.rules import CARD_CLASS, CARDS, CURRENT_RULES, RULES_VERSIONS

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("CARGO_SHARED") or (REPO / ".." / "shared")).resolve()
EXAMPLES = SHARED / "spec" / "express" / "examples"

#: The notation.md example: 3 seats, seed 20261130, stationmaster 2 (order 2, 3, 1).
#: Spaces: 0 Fb, 1 X3, 2 T1, 3 Fg, 4 T2, 5 T2, 6 Fn, 7 T1, 8 R, 9 Fw, 10 X2, 11 Fr,
#: 12 X1, 13 X4. Seat 1 on 12, seat 2 on 10, seat 3 on 1.
SEED3 = 20261130


def examples(name: str) -> list[dict[str, Any]]:
    """The lines of a worked-example file; fail under CI if it is missing, else skip."""
    path = EXAMPLES / name
    if not path.exists():
        message = f"worked examples not found at {path} (shared/ must sit beside the repo)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def run_cli(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "express", *args], cwd=REPO, input=stdin,
                          capture_output=True, timeout=120)


def record(body: str, players: int = 3, seed: int = SEED3, start: str | None = None,
           rules: str = CURRENT_RULES) -> str:
    head = f'[Game "cargo-express"]\n[Rules "{rules}"]\n[Players "{players}"]\n'
    head += f'[Start "{start}"]\n' if start else f'[Seed "{seed}"]\n'
    return head + body + "\n"


def to_action(picks: list[str], plans: dict[int, str], players: int = 3,
              seed: int = SEED3, rules: str = CURRENT_RULES) -> Game:
    """A new game (in rules version ``rules``) played through character selection and
    planning."""
    game = Game.new(players, seed, rules=rules)
    for c in picks:
        game.play(c)
    for seat, plan in plans.items():
        game.commit(seat, plan)
    assert game.position.phase == "a", game.position
    return game


def reparse(p: Position) -> Position:
    """The position through its text: checks it is well formed (keeps resign order)."""
    q = parse_position(format_position(p))
    q.resign_order = p.resign_order[:]
    return q


def from_bag(p: Position, cars: str) -> str:
    """Take these cars out of the bag (first of each), to put somewhere else by hand."""
    for c in cars:
        i = p.bag.index(c)
        p.bag = p.bag[:i] + p.bag[i + 1:]
    return cars


def random_plan(rng: random.Random, p: Position, seat: int) -> str:
    """Three different cards, mostly usable ones (so turns are not all lost)."""
    usable = [c for c in CARDS if CARD_CLASS[c] <= p.engine[seat - 1]]
    hand = list(CARDS) if rng.random() < 0.2 else usable
    return "".join(rng.sample(hand, 3))


def random_game(rng: random.Random, players: int | None = None, resign: float = 0.002,
                greedy: float = 0.6, stop: float = 0.0, rules: str | None = None) -> Game:
    """A random game: uniform legal decisions, often preferring fulfils, attaches, uncouples.

    ``stop`` is the chance to stop after each decision (a game cut short). ``rules``: the
    rules version, or None for either (drawn by ``rng``), so that every property test
    built on random games covers both versions' rule 46.
    """
    n = players or rng.choice((2, 3, 4))
    version = rules or rng.choice(RULES_VERSIONS)
    game = Game.new(n, rng.getrandbits(64), rules=version)
    while not game.over:
        if rng.random() < stop:
            break
        p = game.position
        if rng.random() < resign:
            game.resign(rng.choice([s for s in range(1, n + 1) if p.active(s)]))
            continue
        if p.phase == "p":
            seat = rng.choice(p.to_move())
            game.commit(seat, random_plan(rng, p, seat))
            continue
        options = game.legal()
        token = rng.choice(options)
        if rng.random() < greedy:
            for feature in (".f", ".d", ".a", ".s", ".u"):
                some = [t for t in options if feature in t]
                if some and rng.random() < 0.7:
                    token = rng.choice(some)
                    break
        game.play(token)
    return game
