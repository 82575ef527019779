"""The yardstick: a plain determinized Monte Carlo player to measure the bots against.

Issue #31 asks for Hard to be measured against a player that shares none of the bots'
evaluation (``express.bot``): this one knows only the rules and the score. For a decision it
takes its seat's view alone, lists candidate decisions, and spends a fixed budget of random
playouts (``express.fast.playout``) evenly on them, each playout on a fresh filling of the
hidden parts (``express.determinize``). A playout is worth 1 for a win (shared among tied
winners) plus a small part of the score margin, so that a lost cause still plays for points;
the candidate with the best mean is chosen.

Candidates: every legal pick, swap and turn on one filling (turns ``blind``: none whose
legality hangs on what the view hides, as for the bots, since a whole turn is chosen from
the view), at most ``MAX_CANDIDATES`` of them drawn at random; in planning,
``MAX_CANDIDATES`` different plans of usable cards. Its
randomness is its own: a ``random.Random`` seeded from (seed, seat, view), so the same view
and seed give the same decision.
"""

from __future__ import annotations

import hashlib
import random

from express.determinize import determinize
from express.errors import ExpressError
from express.fast import playout
from express.moves import legal, legal_turns, play
from express.notation import parse_position
from express.position import Position
from express.rules import CARDS

PLAYOUTS = 700  # per decision, about 0.7 CPU-s here (the yardstick)
MAX_CANDIDATES = 40
MARGIN_WEIGHT = 0.002  # a point of margin against a win: a tiebreak between equal chances


def choose(view: str, seat: int, seed: int, playouts: int | None = None) -> str:
    """Seat ``seat``'s next decision from its public ``view`` (1-based seats, as the CLI),
    with ``playouts`` random playouts in all (default ``PLAYOUTS``)."""
    playouts = playouts or PLAYOUTS
    p = parse_position(view)
    if p.phase == "o":
        raise ExpressError("the game is over: there is no decision to make")
    if seat not in p.to_move():
        raise ExpressError(f"seat {seat} has no decision to make now (to move: {p.to_move()})")
    if p.phase == "a" and p.resigned[seat - 1]:
        return "-:~"
    rng = random.Random(_seed(seed, seat, view))
    candidates = _candidates(p, seat, rng)
    if len(candidates) == 1:
        return candidates[0]
    each = max(1, playouts // len(candidates))
    best, best_value = candidates[0], float("-inf")
    for token in candidates:
        value = sum(_playout_value(p, seat, token, rng) for _ in range(each)) / each
        if value > best_value:
            best, best_value = token, value
    return best


def _seed(seed: int, seat: int, view: str) -> int:
    digest = hashlib.blake2b(f"yardstick|{seed}|{seat}|{view}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _candidates(view: Position, seat: int, rng: random.Random) -> list[str]:
    """The decisions worth trying, in a stable order (drawn by ``rng`` when too many)."""
    if view.phase == "p":
        return _plans(view, seat, rng)
    filled = determinize(view, rng)
    # A whole turn is chosen from the view, so none whose legality hangs on hidden parts
    # (a reorder of refilled cars, a sign's choice, a fulfil after a sign: `blind`).
    options = legal_turns(filled, blind=True) if view.phase == "a" else legal(filled)
    if len(options) > MAX_CANDIDATES:
        options = sorted(rng.sample(options, MAX_CANDIDATES))
    if not options:
        raise ExpressError("no legal decision")
    return options


def _plans(view: Position, seat: int, rng: random.Random) -> list[str]:
    """Up to ``MAX_CANDIDATES`` different plans, usable cards first (rule 22 lets any three
    different cards be planned; an unusable one loses its turn)."""
    usable = [c for c in CARDS if view.usable(seat, c)]
    pool = usable if len(usable) >= 3 else list(CARDS)
    plans: set[str] = set()
    for _ in range(MAX_CANDIDATES * 4):
        if len(plans) >= MAX_CANDIDATES:
            break
        plans.add("".join(rng.sample(pool, 3)))
    return sorted(plans)


def _playout_value(view: Position, seat: int, token: str, rng: random.Random) -> float:
    """One playout of ``token`` from a fresh filling of the view: its worth to ``seat``."""
    p = determinize(view, rng)
    try:
        play(p, token, seat if p.phase == "p" else None)
    except ExpressError:  # illegal in this filling of the hidden parts
        return 0.0
    result = playout(p, rng)
    mine = result.scores[seat - 1]
    others = [s for i, s in enumerate(result.scores) if i != seat - 1]
    won = 1.0 / len(result.winners) if seat in result.winners else 0.0
    return won + MARGIN_WEIGHT * (mine - max(others))
