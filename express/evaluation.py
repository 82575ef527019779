"""What a seat's holdings are worth to the bots: the evaluation behind every decision.

- :func:`seat_value`: points now plus what the train, the engine, progress towards the
  next set and the open contracts promise (:func:`contract_potential`), weighed by
  :func:`time_left`, the share of the game still to come.
- :func:`mobility`: how many useful spaces a seat can reach next round (the refit swap).

The weights are this module's constants (``TRAIN_W``, ``SET_W``, ``ENGINE_V``,
``CONTRACT_BASE``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from express.movement import movements
from express.position import Position
from express.rules import CARD_CLASS, CARDS, COLOURS, CONTRACTS, SPACES

TRAIN_W = 0.6  # a car on the train: likely points later
SET_W = 1.0  # progress towards the next set of five colours (k colours: SET_W * k² / 5)
ENGINE_V = (0.0, 4.0, 6.0, 7.0)  # cumulative worth of the upgrades, early in the game
CONTRACT_BASE = 0.35  # chance that a contract with no cars yet is fulfilled in time
MEAN_CONTRACT = sum(v for _, v in CONTRACTS.values()) / len(CONTRACTS)


def time_left(p: Position) -> float:
    """How much of the game is left, 1 at the start to about 0 in the last round."""
    if p.flag_l:
        return 0.1
    supply = len(p.bag) + p.complex_cars() - p.n
    tf = min(1.0, max(0.15, supply / 30))
    return min(tf, (30 - p.round) / 4 + 0.1)


def _cover(need: str, cars: str) -> int:
    """How many of the cars a contract needs are among ``cars`` (as multisets)."""
    got = 0
    for c in need:
        j = cars.find(c)
        if j >= 0:
            got += 1
            cars = cars[:j] + cars[j + 1:]
    return got


@lru_cache(maxsize=1 << 14)
def contract_potential(cid: str, yard: str, train: str, tf: float) -> float:
    """The expected gain still to come from an open contract (its value and the -2 back).

    Remembered (``lru_cache``): it depends on its four immutable arguments alone, and a
    seat's value asks it for every contract the view hides.
    """
    need, value = CONTRACTS[cid]
    in_yard = _cover(need, yard)
    in_all = _cover(need, yard + train)
    prog = (in_yard + 0.6 * (in_all - in_yard)) / len(need)
    base = CONTRACT_BASE * tf
    return (value + 2) * (base + (1 - base) * prog * prog) * 0.9


def seat_value(p: Position, seat: int, tf: float, full: bool,
               unknown: Sequence[str] = (), pool: Sequence[str] = ()) -> float:
    """The worth of a seat's holdings: points now plus what they promise.

    ``unknown`` lists open contracts whose identity the bot cannot know (just signed, or
    another seat's): their potential is the mean over ``pool``, the ids the view hides.
    """
    i = seat - 1
    yard = p.yard[i]
    done = p.done[i]
    scored = yard + "".join(c for _, c in done) if done else yard
    counts = [scored.count(c) for c in COLOURS]
    s = min(counts)
    v = float(len(scored) + 5 * s + sum(CONTRACTS[c][1] for c, _ in done)
              - 2 * len(p.open[i]))
    train = p.train[i]
    v += TRAIN_W * len(train) * (tf if full else 1.0)
    v += ENGINE_V[p.engine[i]] * (tf if full else 1.0)
    if not full:
        return v
    k = sum(1 for c in counts if c > s)
    v += SET_W * k * k / 5 * tf
    for cid in p.open[i]:
        if cid in unknown:
            if pool:
                v += sum(contract_potential(h, yard, train, tf) for h in pool) / len(pool)
            else:
                v += (MEAN_CONTRACT + 2) * CONTRACT_BASE * tf * 0.9
        else:
            v += contract_potential(cid, yard, train, tf)
    return v


def mobility(p: Position, seat: int) -> float:
    """How many useful spaces the seat can reach next round with its usable cards."""
    i = seat - 1
    if p.resigned[i]:
        return 0.0
    train = p.train[i]
    room = len(train) < p.capacity(seat)
    useful = set()
    for card in CARDS:
        if CARD_CLASS[card] > p.engine[i]:
            continue
        for end, _path, _d in movements(p, seat, card):
            piece = p.board[end]
            if piece[0] == "X" and ((room and p.cars[piece]) or
                                    (piece == f"X{seat}" and p.engine[i] < 3)):
                useful.add(end)
            elif piece[0] == "F" and train and train[-1] == piece[1]:
                useful.add(end)
    return float(len(useful)) + 0.01 * (p.loc[i] % SPACES)
