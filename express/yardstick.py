"""The yardstick: a plain determinized Monte Carlo player to measure the bots against.

Issue #31 asks for Hard to be measured against a player that shares none of the bots'
evaluation (``express.evaluation``): this one knows only the rules and the score. For a decision it
takes its seat's view alone, lists candidate decisions, and spends a fixed budget of
playouts on them, each playout on a fresh filling of the hidden parts
(``express.determinize``) played to the end of the game. A playout is worth 1 for a win
(shared among tied winners) plus a small part of the score margin, so that a lost cause
still plays for points.

**Budget**: ``PLAYOUTS`` playouts a decision, shared by sequential halving (Karnin et al.
2013): every candidate gets an equal share, the better half goes on, until one is left.
Uniform shares over dozens of candidates leave each a handful of noisy playouts; halving
spends most of the budget telling the good ones apart.

**Playouts** (:func:`busy_turn`): random, but never idle. A turn draws one of the card's
movements that ends where an action moves cars towards points (attach to a train with
room, upgrade at the seat's own complex, uncouple at a factory taking the train's rear
colour), and does it in full; with none, any movement, sometimes a sign. Fulfils take the
choice that fulfils most. Characters and plans (three usable cards) are random. Uniformly
random play (``express.fast.random_turn``) runs every game to round 30 near a score of 0:
such playouts tell nothing apart (measured, docs/logs/express-bots.md).

**Candidates**: every legal pick, swap and turn on one filling (turns ``blind``: none whose
legality hangs on what the view hides, since a whole turn is chosen from the view), one per
outcome for the seat (turns that leave its holdings, place and the complexes alike are one
choice), at most ``MAX_CANDIDATES`` drawn at random; in planning, that many different
ordered plans of usable cards. Its randomness is its own: a ``random.Random`` seeded from
(seed, seat, view), so the same view and seed give the same decision.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections.abc import Callable

from express.determinize import determinize
from express.errors import ExpressError
from express.fast import playout
from express.legal_decisions import fulfil_options, legal, legal_turns
from express.movement import movements
from express.moves import play
from express.notation import parse_position
from express.position import Position
from express.rules import CARD_CLASS, CARDS, CONTRACTS, engineer_any_colour

PLAYOUTS = 700  # per decision (the yardstick: about 700, ≈ 0.7 CPU-s)
#: The tournament's ``novice``: a newcomer who knows the rules and tries a few lines at
#: random before each decision, the measure of "Easy is beatable by a beginner" (issue
#: #31). Halving gives every candidate at least one playout a stage, so a decision among
#: 48 candidates takes about 95.
NOVICE_PLAYOUTS = 50
MAX_CANDIDATES = 48
MARGIN_WEIGHT = 0.01  # a point of margin against a win: a tiebreak between equal chances
SIGN_CHANCE = 0.25  # a playout turn with nothing to move signs this often (deck allowing)


def choose(view: str, seat: int, seed: int, playouts: int | None = None) -> str:
    """Seat ``seat``'s next decision from its public ``view`` (1-based seats, as the CLI),
    with ``playouts`` playouts in all (default ``PLAYOUTS``)."""
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
    return halving(candidates, playouts or PLAYOUTS,
                   lambda token: _playout_value(p, seat, token, rng))


def halving(candidates: list[str], budget: int, value: Callable[[str], float]) -> str:
    """Sequential halving: the candidate left after rounds that each give every survivor
    an equal share of ``budget / rounds`` samples of ``value`` and keep the better half by
    mean (ties to the earlier candidate)."""
    rounds = max(1, math.ceil(math.log2(len(candidates))))
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    alive = list(range(len(candidates)))
    while len(alive) > 1:
        each = max(1, budget // (len(alive) * rounds))
        for j in alive:
            for _ in range(each):
                totals[j] += value(candidates[j])
            counts[j] += each
        alive.sort(key=lambda j: (-totals[j] / counts[j], j))
        alive = alive[:(len(alive) + 1) // 2]
    return candidates[alive[0]]


def _seed(seed: int, seat: int, view: str) -> int:
    digest = hashlib.blake2b(f"yardstick|{seed}|{seat}|{view}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _candidates(view: Position, seat: int, rng: random.Random) -> list[str]:
    """The decisions worth trying, in a stable order (drawn by ``rng`` when too many)."""
    if view.phase == "p":
        return _plans(view, seat, rng)
    filled = determinize(view, rng)
    if view.phase == "a":
        # A whole turn is chosen from the view, so none whose legality hangs on hidden
        # parts (a reorder of refilled cars, a sign's choice, a fulfil after a sign).
        options = _distinct(filled, seat, legal_turns(filled, blind=True))
    else:
        options = legal(filled)
    if not options:
        raise ExpressError("no legal decision")
    if len(options) > MAX_CANDIDATES:
        options = sorted(rng.sample(options, MAX_CANDIDATES))
    return options


def _distinct(filled: Position, seat: int, turns: list[str]) -> list[str]:
    """One turn per outcome: the first of those that leave the seat's holdings, place,
    the Driver and the complexes alike (on this filling)."""
    i = seat - 1
    seen: set[tuple[object, ...]] = set()
    out = []
    for token in turns:
        q = filled.copy()
        play(q, token)
        key = (q.loc[i], q.train[i], q.yard[i], tuple(q.open[i]), tuple(q.done[i]),
               q.engine[i], q.driver_used, tuple(q.cars.values()))
        if key not in seen:
            seen.add(key)
            out.append(token)
    return out


def _plans(view: Position, seat: int, rng: random.Random) -> list[str]:
    """Up to ``MAX_CANDIDATES`` different ordered plans of usable cards (rule 22 lets any
    three different cards be planned; an unusable one loses its turn)."""
    usable = [c for c in CARDS if view.usable(seat, c)]
    pool = usable if len(usable) >= 3 else list(CARDS)
    plans = ["".join(t) for t in itertools.permutations(pool, 3)]
    if len(plans) > MAX_CANDIDATES:
        plans = sorted(rng.sample(plans, MAX_CANDIDATES))
    return plans


def _playout_value(view: Position, seat: int, token: str, rng: random.Random) -> float:
    """One playout of ``token`` from a fresh filling of the view: its worth to ``seat``."""
    p = determinize(view, rng)
    try:
        play(p, token, seat if p.phase == "p" else None)
    except ExpressError:  # illegal in this filling of the hidden parts
        return 0.0
    result = playout(p, rng, turn_policy=busy_turn)
    mine = result.scores[seat - 1]
    others = [s for i, s in enumerate(result.scores) if i != seat - 1]
    won = 1.0 / len(result.winners) if seat in result.winners else 0.0
    return won + MARGIN_WEIGHT * (mine - max(others))


def busy_turn(p: Position, rng: random.Random) -> None:
    """One playout turn of the seat to move, in place: a random movement to a space where
    cars move towards points, that action in full, then the most fulfils (module doc)."""
    seat = p.turn_seat()
    i = seat - 1
    card = p.plans[i].pop(0) if p.plans[i] else None
    if p.resigned[i] or card is None or CARD_CLASS[card] > p.engine[i]:
        p.end_turn()
        return
    moves = movements(p, seat, card)
    if not moves:
        p.end_turn()
        return
    actions = _busy_actions(p, seat, moves)
    if actions:
        end, driver, act = actions[int(rng.random() * len(actions))]
    else:
        end, _path, driver = moves[int(rng.random() * len(moves))]
        act = "s" if p.deck and len(p.open[i]) <= 1 and rng.random() < SIGN_CHANCE else ""
    p.loc[i] = end
    if driver:
        p.driver_used = True
    _act(p, seat, act)
    held = p.open[i]
    if held and len(p.yard[i]) >= 2:
        opts = fulfil_options(p.yard[i], held, p.chars[i] == "Ma")
        most = max(s.count(".f") for s, _ in opts)
        if most:
            best = [s for s, _ in opts if s.count(".f") == most]
            for step in best[int(rng.random() * len(best))].split(".")[1:]:
                cid, _, cars = step[1:].partition("=")
                p.fulfil(seat, cid, cars or CONTRACTS[cid][0])
    p.end_turn()


def _busy_actions(p: Position, seat: int,
                  moves: list[tuple[int, str, bool]]) -> list[tuple[int, bool, str]]:
    """(end, Driver used, action) for every movement ending where cars move to points."""
    i = seat - 1
    train = p.train[i]
    room = len(train) < p.capacity(seat)
    engineer = p.chars[i] == "En"
    any_colour = engineer and engineer_any_colour(p.rules)
    out = []
    for end, _path, driver in moves:
        piece = p.board[end]
        if piece[0] == "X":
            if room and p.cars[piece]:
                out.append((end, driver, "a"))
            if piece == f"X{seat}" and p.engine[i] < 3:
                out.append((end, driver, "u"))
        elif piece[0] == "F" and train and (train[-1] == piece[1] or any_colour or
                                            engineer and piece[1] in train):
            out.append((end, driver, "d"))
    return out


def _act(p: Position, seat: int, act: str) -> None:
    """Do ``act`` in full where the seat's locomotive stands."""
    i = seat - 1
    if act == "a":
        cars = p.cars[p.board[p.loc[i]]]
        take = min(len(cars), p.capacity(seat) - len(p.train[i]))
        p.attach(seat, tuple(range(1, take + 1)), False)
    elif act == "u":
        p.engine[i] += 1
    elif act == "d":
        p.uncouple(seat, _uncouple_spots(p, seat))
    elif act == "s":
        p.sign(seat, 1)


def _uncouple_spots(p: Position, seat: int) -> tuple[int, ...]:
    """The most cars the seat may uncouple at its factory (rules 45–46)."""
    i = seat - 1
    train = p.train[i]
    colour = p.board[p.loc[i]][1]
    if p.chars[i] == "En":
        if engineer_any_colour(p.rules):
            return tuple(range(1, len(train) + 1))
        return tuple(j for j, c in enumerate(train, 1) if c == colour)
    run = len(train) - len(train.rstrip(colour))
    return tuple(range(len(train) - run + 1, len(train) + 1))
