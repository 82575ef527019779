"""An arena's pairing pass: which of the waiting players start a game now, and who plays Blue
(issue #46; docs/tournaments-arena.md). Pure: the caller passes the players free at this
moment and the clock reading, and starts the games returned.

The pass, in lichess's spirit (modules/tournament/.../arena/PairingSystem.scala,
AntmaPairing.scala, ColorHistory.scala, WaitingUsers.scala), with our own matching:

1. **Who may be paired**: the waiting players who are neither paused nor withdrawn.
2. **When** (:func:`ready`): at least two of them, and either two have waited
   ``wait_seconds``, or ``enough`` are waiting, or the waiting make up two thirds of the
   tournament's active players (so nobody waits for games that will not end soon).
3. **Whom with** (:func:`match`): a minimum-cost matching of the players ordered by rank,
   where a player may meet only someone fewer than ``window`` (6) places from them in that
   order. On rank alone the cheapest matching of points on a line pairs neighbours, so the
   window only has to leave room for the barred pairs and the penalties. Exact inside the
   window by a dynamic programme over (position, which of the next players are taken):
   O(n · 2^w · w), linear in the number waiting (200 waiting: a few ms). A pair's cost: the
   rank gap, weighted more near the top (lichess's rank factor, 2000 at the top down to 300
   at the bottom), plus the score gap, plus the rating gap, plus penalties for a recent
   opponent or a fourth game in one colour.
   Meeting one's last opponent is not a pair of the matching at all. As many pairs as
   possible come first, then, of the players left out, the one who became free last.
4. **Leftovers**: the players the matching left out are paired in rank order if they may:
   a rematch of the last game only once both have waited ``rematch_wait_seconds``, or at
   once when nobody else of the tournament is playing (lichess pairs a two-player arena at
   once and otherwise never; we let a rematch happen after a wait, so two players left alone
   late in an arena are not idle).
5. **Colours**: the player with the longer run of Blue (then the more Blue games overall)
   plays Orange; a tie goes to a coin (``rng``) or, without one, Blue to the better rank.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

BLUE = "B"
ORANGE = "O"

UNPAIRED = 10**15  # leaving a player out costs more than any set of pairs
WAIT_ORDER = 10**9  # ... and leaving out an earlier-free player more than a later one
MAX_COLOUR_RUN = 3  # a fourth game running in one colour is avoided (lichess's maxStrike)
COLOUR_CLASH = 10**6
RECENT_OPPONENT = 10**5  # per meeting among the recent opponents (the last one is barred)
SCORE_WEIGHT = 50  # per point of score between the two
TOP_RANK_FACTOR = 2000
BOTTOM_RANK_FACTOR = 300


@dataclass(frozen=True)
class PairingRules:
    """The waits and the matching window of one arena (docs/tournaments-arena.md)."""

    wait_seconds: float = 1.0
    enough: int = 20
    rematch_wait_seconds: float = 10.0
    window: int = 6


DEFAULT_PAIRING_RULES = PairingRules()


@dataclass(frozen=True)
class Waiting:
    """A player of the arena who is not in a game now.

    ``rank`` is their place in the current standings (1 the leader; distinct); ``free_since``
    when they became free, in seconds on the caller's clock; ``colours`` their colour in each
    game so far, oldest first (``"B"`` Blue, ``"O"`` Orange); ``recent_opponents`` their last
    opponents, most recent first (the first is their last opponent).
    """

    id: int
    rating: int
    score: int
    rank: int
    free_since: float
    paused: bool = False
    withdrawn: bool = False
    recent_opponents: tuple[int, ...] = ()
    colours: str = ""

    def __post_init__(self) -> None:
        if set(self.colours) - {BLUE, ORANGE}:
            raise ValueError(f"colours are a string of B and O: {self!r}")

    @property
    def last_opponent(self) -> int | None:
        return self.recent_opponents[0] if self.recent_opponents else None

    @property
    def available(self) -> bool:
        return not (self.paused or self.withdrawn)

    @property
    def colour_run(self) -> int:
        """The games in a row in the last colour: positive Blue, negative Orange."""
        if not self.colours:
            return 0
        last = self.colours[-1]
        run = len(self.colours) - len(self.colours.rstrip(last))
        return run if last == BLUE else -run

    @property
    def colour_balance(self) -> int:
        """Blue games minus Orange games."""
        return self.colours.count(BLUE) - self.colours.count(ORANGE)


@dataclass(frozen=True)
class Pair:
    """A game to start: Blue moves first."""

    blue: int
    orange: int


# --- the pass --------------------------------------------------------------------------------


def pairings(
    waiting: Sequence[Waiting],
    now: float,
    rules: PairingRules = DEFAULT_PAIRING_RULES,
    *,
    playing: int | None = None,
    rng: random.Random | None = None,
) -> tuple[Pair, ...]:
    """The games to start now (none while the wait rule holds), best ranked first.

    ``playing``: how many of the tournament's active players are in a game now, if known.
    """
    pool = eligible(waiting)
    if not ready(pool, now, rules, playing=playing):
        return ()
    matched = match(pool, rules)
    taken = {p.id for pair in matched for p in pair}
    left = [p for p in sorted(pool, key=_rank_key) if p.id not in taken]
    matched += _pair_leftovers(left, now, rules, playing)
    matched.sort(key=lambda pair: min(_rank_key(pair[0]), _rank_key(pair[1])))
    return tuple(colours(a, b, rng) for a, b in matched)


def eligible(waiting: Sequence[Waiting]) -> list[Waiting]:
    """The waiting players who may be paired: not paused, not withdrawn. Ids must be
    distinct: a player is in one place at a time."""
    ids = [p.id for p in waiting]
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice among the waiting")
    return [p for p in waiting if p.available]


def ready(
    pool: Sequence[Waiting], now: float, rules: PairingRules, *, playing: int | None = None
) -> bool:
    """Should the pass pair now, or wait a moment for more players to become free?"""
    if len(pool) < 2:
        return False
    if len(pool) >= rules.enough:
        return True
    if playing is not None and 3 * len(pool) >= 2 * (len(pool) + playing):
        return True
    waited = sum(now - p.free_since >= rules.wait_seconds for p in pool)
    return waited >= 2


# --- the matching ----------------------------------------------------------------------------


def match(pool: Sequence[Waiting], rules: PairingRules = DEFAULT_PAIRING_RULES) -> list[
    tuple[Waiting, Waiting]
]:
    """A minimum-cost matching of ``pool`` (by rank) inside the window; see the module's
    docstring. Pairs of last opponents are never in it."""
    players = sorted(pool, key=_rank_key)
    n = len(players)
    if n < 2:
        return []
    edges = _edges(players, max(2, rules.window))
    unpaired = _unpaired_costs(players)
    layers = _forward(n, edges, unpaired)
    return [(players[i], players[j]) for i, j in _backtrack(layers)]


def _rank_key(player: Waiting) -> tuple[int, int]:
    return (player.rank, player.id)


Edges = list[list[tuple[int, int]]]  # per position: (distance forward, cost)
Layer = dict[int, tuple[int, int, int]]  # mask -> (cost, previous mask, partner or -1)


def _edges(players: Sequence[Waiting], window: int) -> Edges:
    worst = max(p.rank for p in players)
    edges: Edges = []
    for i, a in enumerate(players):
        row = []
        for d in range(1, window):
            if i + d >= len(players):
                break
            b = players[i + d]
            if not rematch(a, b):
                row.append((d, pair_cost(a, b, worst)))
        edges.append(row)
    return edges


def _unpaired_costs(players: Sequence[Waiting]) -> list[int]:
    """Leaving out the player who became free last costs the least (lichess leaves the most
    recent one out of an odd number)."""
    order = sorted(range(len(players)), key=lambda i: (players[i].free_since, players[i].id))
    cost = [0] * len(players)
    for place, i in enumerate(order):
        cost[i] = UNPAIRED + WAIT_ORDER * (len(players) - place)
    return cost


def _forward(n: int, edges: Edges, unpaired: list[int]) -> list[Layer]:
    """The dynamic programme: after position i, for each set of later players already taken
    (bit d: position i + 1 + d), the cheapest way there. Ties keep the first found, so the
    answer is deterministic."""
    layer: Layer = {0: (0, 0, -1)}
    layers = []
    for i in range(n):
        nxt: Layer = {}
        for mask, (cost, _, _) in layer.items():
            if mask & 1:  # taken by an earlier player: nothing to decide
                _relax(nxt, mask >> 1, cost, mask, -1)
                continue
            _relax(nxt, mask >> 1, cost + unpaired[i], mask, -1)
            for d, edge in edges[i]:
                if not mask >> d & 1:
                    _relax(nxt, (mask | 1 << d) >> 1, cost + edge, mask, i + d)
        layers.append(nxt)
        layer = nxt
    return layers


def _relax(layer: Layer, mask: int, cost: int, previous: int, partner: int) -> None:
    best = layer.get(mask)
    if best is None or cost < best[0]:
        layer[mask] = (cost, previous, partner)


def _backtrack(layers: list[Layer]) -> list[tuple[int, int]]:
    pairs = []
    mask = 0
    for i in range(len(layers) - 1, -1, -1):
        _, previous, partner = layers[i][mask]
        if partner >= 0:
            pairs.append((i, partner))
        mask = previous
    pairs.reverse()
    return pairs


def pair_cost(a: Waiting, b: Waiting, worst_rank: int) -> int:
    """How poor a game ``a`` against ``b`` would be: 0 is ideal."""
    top = min(a.rank, b.rank)
    factor = BOTTOM_RANK_FACTOR + (TOP_RANK_FACTOR - BOTTOM_RANK_FACTOR) * max(
        0, worst_rank - top
    ) // max(1, worst_rank)
    cost = abs(a.rank - b.rank) * factor
    cost += SCORE_WEIGHT * abs(a.score - b.score) + abs(a.rating - b.rating)
    cost += RECENT_OPPONENT * (a.recent_opponents.count(b.id) + b.recent_opponents.count(a.id))
    if colour_clash(a, b):
        cost += COLOUR_CLASH
    return cost


def rematch(a: Waiting, b: Waiting) -> bool:
    """Was either the other's last opponent?"""
    return a.last_opponent == b.id or b.last_opponent == a.id


def colour_clash(a: Waiting, b: Waiting) -> bool:
    """Have both played their last three (or more) games in the same colour? One of them
    would then get a fourth."""
    ra, rb = a.colour_run, b.colour_run
    both_blue = ra >= MAX_COLOUR_RUN and rb >= MAX_COLOUR_RUN
    return both_blue or (ra <= -MAX_COLOUR_RUN and rb <= -MAX_COLOUR_RUN)


# --- leftovers and colours -------------------------------------------------------------------


def _pair_leftovers(
    left: list[Waiting], now: float, rules: PairingRules, playing: int | None
) -> list[tuple[Waiting, Waiting]]:
    """Pair, in rank order, the players the matching left out: those too far apart for the
    window, and last opponents once a rematch is allowed."""
    pairs = []
    while len(left) >= 2:
        a = left.pop(0)
        k = _partner(a, left, now, rules, playing)
        if k is not None:
            pairs.append((a, left.pop(k)))
    return pairs


def _partner(
    a: Waiting, left: list[Waiting], now: float, rules: PairingRules, playing: int | None
) -> int | None:
    """The first of ``left`` (in rank order) ``a`` may meet, a rematch only if none other."""
    for k, b in enumerate(left):
        if not rematch(a, b):
            return k
    for k, b in enumerate(left):
        if _rematch_allowed(a, b, now, rules, playing):
            return k
    return None


def _rematch_allowed(
    a: Waiting, b: Waiting, now: float, rules: PairingRules, playing: int | None
) -> bool:
    if playing == 0:
        return True
    wait = rules.rematch_wait_seconds
    return now - a.free_since >= wait and now - b.free_since >= wait


def colours(a: Waiting, b: Waiting, rng: random.Random | None = None) -> Pair:
    """Who plays Blue: whoever had Blue less (the shorter Blue run, then fewer Blue games
    overall); a tie by ``rng``, or, without one, Blue to the better ranked (``a`` if level)."""
    key_a = (a.colour_run, a.colour_balance)
    key_b = (b.colour_run, b.colour_balance)
    if key_a == key_b:
        a_blue = rng.random() < 0.5 if rng is not None else _rank_key(a) <= _rank_key(b)
    else:
        a_blue = key_a < key_b
    return Pair(a.id, b.id) if a_blue else Pair(b.id, a.id)
