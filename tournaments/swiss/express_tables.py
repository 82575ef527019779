"""Swiss tables of three or four for Cargo Express: table sizes, byes, score groups, seats,
points by place, tie breaks and standings (issue #46; docs/tournaments-express-swiss.md).

Everything here is a pure function of the entrants and the stored games, so the site can
recompute a round's tables or the standings from scratch and compare. No randomness: the
same games always give the same tables.

Players are ids (`int`, the site's entry or user ids). A table lists its players in seat
order: seat 1 first, as `express.table` numbers seats 0 to n-1 and the engine 1 to n. The
first seat is meant to be the first player (the stationmaster of the game's first round,
rulebook 4.0): the game must then start with seat 1 holding the stationmaster card.

Points and tie breaks are `Fraction`s: a table of four gives thirds, and exact numbers make
the standings recomputed from scratch equal to the stored ones, with no rounding.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations, permutations
from math import lcm

MIN_SEATS = 2  # Cargo Express plays two to four (rulebook 1.0)
MAX_SEATS = 4
BYE_POINTS = Fraction(1, 2)  # the average place points at a table of any size


# --- the stored data -------------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    """A player of the tournament. `rating` is their rating when they joined (kept fixed so
    the standings stay a function of the stored data): it orders round 1 and breaks ties
    that every tie break leaves. `joined` is the first round they may be seated in (a late
    joiner scores nothing for the rounds before); `withdrew`, if set, the first round they
    are no longer seated in (their games so far still count, for them and their opponents).
    """

    id: int
    rating: float = 0.0
    joined: int = 1
    withdrew: int | None = None

    def plays_in(self, round_no: int) -> bool:
        """Is the entrant to be seated in round `round_no` (1, 2, ...)?"""
        return self.joined <= round_no and (self.withdrew is None or round_no < self.withdrew)


@dataclass(frozen=True)
class Game:
    """A finished table: its players in seat order and their places, as the engine's
    `Result.places` gives them (1 the best; players level on score and tiebreak cars share a
    place, rulebook 8.0; a player who resigned is placed after every player who did not)."""

    seats: tuple[int, ...]
    places: tuple[int, ...]

    def __post_init__(self) -> None:
        n = len(self.seats)
        if not MIN_SEATS <= n <= MAX_SEATS or len(self.places) != n:
            raise ValueError(f"a table of 2 to 4 seats with a place each: {self!r}")
        if len(set(self.seats)) != n or not all(1 <= p <= n for p in self.places):
            raise ValueError(f"distinct players and places from 1 to {n}: {self!r}")


@dataclass(frozen=True)
class Round:
    """A round's stored results: its finished games and who had the bye."""

    games: tuple[Game, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pairing:
    """A round's tables, the top score group's first, each in seat order; and the byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    """A line of the standings. `rank` is shared by players level on points and every tie
    break (`wins` last); the list puts them in seed-rating order, then by id."""

    id: int
    rank: int
    points: Fraction
    opponents_average: Fraction  # the Buchholz of multiplayer tables
    sonneborn_berger: Fraction
    wins: int
    games: int
    byes: int
    withdrawn: bool


# --- table sizes -----------------------------------------------------------------------------


def table_sizes(n: int, max_size: int = MAX_SEATS,
                min_size: int = 3) -> tuple[tuple[int, ...], int]:
    """Tables for `n` players, largest first, and the number of byes.

    Of the ways to seat them at tables of `min_size` to `max_size`, the one with (1) the
    fewest byes, then (2) the fewest tables of two (a duel, a different game), then (3) the
    fewest tables, i.e. the largest. Defaults: 6 → 3+3, 7 → 4+3, 5 → 4 and a bye; with
    `min_size=2`, 5 → 3+2. ValueError when nobody could be seated."""
    if not MIN_SEATS <= min_size <= max_size <= MAX_SEATS:
        raise ValueError(f"table sizes {min_size}..{max_size}: Cargo Express seats 2 to 4")
    if n < min_size:
        raise ValueError(f"{n} players: too few for a table of {min_size}")
    best: tuple[tuple[int, int, int], tuple[int, ...]] | None = None
    for fours in range(n // 4 + 1):
        for threes in range((n - 4 * fours) // 3 + 1):
            for twos in range((n - 4 * fours - 3 * threes) // 2 + 1):
                sizes = (4,) * fours + (3,) * threes + (2,) * twos
                if not sizes or not all(min_size <= s <= max_size for s in sizes):
                    continue
                key = (n - sum(sizes), twos, len(sizes))
                if best is None or key < best[0]:
                    best = (key, sizes)
    assert best is not None  # n >= min_size: one table of min_size at least
    return best[1], best[0][0]


# --- points by place -------------------------------------------------------------------------


def beats(place: int, other: int) -> Fraction:
    """One player's result against another at the same table: 1 ahead, 1/2 level, 0 behind."""
    return Fraction(1) if place < other else Fraction(1, 2) if place == other else Fraction(0)


def place_points(places: Sequence[int]) -> list[Fraction]:
    """Each player's points from the places of a table: the share of the others they
    finished ahead of, a tie counting half. A winner scores 1 and the last 0 at any table;
    a table of 4 gives 1, 2/3, 1/3, 0 and a table of 3 gives 1, 1/2, 0. The points of a
    table always average 1/2, so no table size gives more points to share out."""
    n = len(places)
    if n < MIN_SEATS:
        raise ValueError(f"places {list(places)}: a table has two players at least")
    return [sum((beats(p, q) for j, q in enumerate(places) if j != i), Fraction(0)) / (n - 1)
            for i, p in enumerate(places)]


# --- what the stored rounds tell ---------------------------------------------------------------


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def meetings(rounds: Sequence[Round]) -> Counter[tuple[int, int]]:
    """How often each pair of players (lower id first) has sat at the same table."""
    met: Counter[tuple[int, int]] = Counter()
    for rnd in rounds:
        for game in rnd.games:
            met.update(_pair(a, b) for a, b in combinations(game.seats, 2))
    return met


def seat_counts(rounds: Sequence[Round]) -> dict[int, Counter[int]]:
    """How often each player has sat in each seat (0: the first), over every table size."""
    counts: dict[int, Counter[int]] = {}
    for rnd in rounds:
        for game in rnd.games:
            for seat, player in enumerate(game.seats):
                counts.setdefault(player, Counter())[seat] += 1
    return counts


def bye_counts(rounds: Sequence[Round]) -> Counter[int]:
    """How many byes each player has had."""
    return Counter(player for rnd in rounds for player in rnd.byes)


def _check(entrants: Sequence[Entrant], rounds: Sequence[Round]) -> None:
    """ValueError unless every player of the rounds is an entrant, once per round."""
    ids = {e.id for e in entrants}
    if len(ids) != len(entrants):
        raise ValueError("an entrant is listed twice")
    for number, rnd in enumerate(rounds, 1):
        players = [p for game in rnd.games for p in game.seats] + list(rnd.byes)
        if len(set(players)) != len(players) or not ids.issuperset(players):
            raise ValueError(f"round {number}: every player an entrant, seated once at most")


# --- standings -------------------------------------------------------------------------------


def _average(total: Fraction, count: int) -> Fraction:
    return total / count if count else Fraction(0)


def standings(entrants: Sequence[Entrant], rounds: Sequence[Round]) -> list[Standing]:
    """The standings after `rounds`, a function of them and the entrants alone.

    Points: the place points of every game plus 1/2 a bye. Then two tie breaks, averages
    over the player's games (a bye or a round missed counts in neither):
    - opponents' average (the Buchholz of multiplayer tables): per game, the average
      points of the others at the table, now;
    - Sonneborn–Berger: per game, the sum over the others at the table of the result
      against them (1, 1/2, 0, as `beats`) times their points now, divided by the number
      of others; at a table of two it is chess's Sonneborn–Berger.
    Then games won (a shared first place counts), then seed rating and id to order the list.
    """
    _check(entrants, rounds)
    points, games, wins = _tally(entrants, rounds)
    opponents, sb = _tie_break_sums(rounds, points)
    byes = bye_counts(rounds)
    lines = [Standing(id=e.id, rank=0, points=points[e.id],
                      opponents_average=_average(opponents[e.id], games[e.id]),
                      sonneborn_berger=_average(sb[e.id], games[e.id]),
                      wins=wins[e.id], games=games[e.id], byes=byes[e.id],
                      withdrawn=e.withdrew is not None) for e in entrants]
    rating = {e.id: e.rating for e in entrants}
    lines.sort(key=lambda s: (*_merit(s), -rating[s.id], s.id))
    return _ranked(lines)


def _tally(entrants: Sequence[Entrant],
           rounds: Sequence[Round]) -> tuple[dict[int, Fraction], Counter[int], Counter[int]]:
    """Each entrant's points, games played and games won (a shared first place counts)."""
    points = {e.id: Fraction(0) for e in entrants}
    games: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    for rnd in rounds:
        for player in rnd.byes:
            points[player] += BYE_POINTS
        for game in rnd.games:
            for player, place, gained in zip(game.seats, game.places, place_points(game.places),
                                              strict=True):
                points[player] += gained
                games[player] += 1
                wins[player] += place == 1
    return points, games, wins


def _tie_break_sums(rounds: Sequence[Round], points: Mapping[int, Fraction]
                    ) -> tuple[defaultdict[int, Fraction], defaultdict[int, Fraction]]:
    """Each player's sums over their games of the opponents' average points and of the
    Sonneborn–Berger term (`standings`), to be divided by their games."""
    opponents: defaultdict[int, Fraction] = defaultdict(Fraction)
    sb: defaultdict[int, Fraction] = defaultdict(Fraction)
    for rnd in rounds:
        for game in rnd.games:
            others = len(game.seats) - 1
            for i, player in enumerate(game.seats):
                rest = [j for j in range(len(game.seats)) if j != i]
                opponents[player] += sum((points[game.seats[j]] for j in rest),
                                         Fraction(0)) / others
                sb[player] += sum((beats(game.places[i], game.places[j]) * points[game.seats[j]]
                                   for j in rest), Fraction(0)) / others
    return opponents, sb


def _merit(s: Standing) -> tuple[Fraction, Fraction, Fraction, int]:
    """What the rank is decided by (the lower, the better)."""
    return -s.points, -s.opponents_average, -s.sonneborn_berger, -s.wins


def _ranked(lines: list[Standing]) -> list[Standing]:
    """The sorted lines with their ranks: level players share the better one ("=3")."""
    out: list[Standing] = []
    for i, line in enumerate(lines):
        rank = out[-1].rank if out and _merit(out[-1]) == _merit(line) else i + 1
        out.append(replace(line, rank=rank))
    return out


# --- pairing a round -------------------------------------------------------------------------


def pair_round(entrants: Sequence[Entrant], rounds: Sequence[Round], *,
               max_size: int = MAX_SEATS, min_size: int = 3) -> Pairing:
    """The tables of the round after `rounds` (round `len(rounds) + 1`).

    The players to be seated, in standings order, fill the tables from the top; the byes
    go first to the lowest placed of those with the fewest byes. Swaps between tables then
    cut the repeated meetings (`_Swaps`), and each table's seats are given to balance
    everyone's seat history (`seat_table`)."""
    table = standings(entrants, rounds)
    playing = {e.id for e in entrants if e.plays_in(len(rounds) + 1)}
    order = [s.id for s in table if s.id in playing]
    sizes, n_byes = table_sizes(len(order), max_size, min_size)
    rank = {p: i for i, p in enumerate(order)}
    had = bye_counts(rounds)
    byes = sorted(order, key=lambda p: (had[p], -rank[p]))[:n_byes]
    seated = [p for p in order if p not in byes]
    fill = [seated[sum(sizes[:i]):sum(sizes[:i + 1])] for i in range(len(sizes))]
    counts = seat_counts(rounds)
    tables = _Swaps(fill, meetings(rounds), {s.id: s.points for s in table}, counts).run()
    return Pairing(
        tables=tuple(seat_table(sorted(t, key=rank.__getitem__), counts) for t in tables),
        byes=tuple(sorted(byes, key=rank.__getitem__)))


Cost = tuple[int, int, int, int]


class _Swaps:
    """The swaps between tables that improve the top-down fill `fill`.

    A table's cost, compared in this order: (1) its repeated meetings, a pair that met k
    times before counting k² (a third meeting is worse than two second ones); (2) the
    spread of its players' points, summed over its pairs; (3) its seat cost, the smallest
    sum of past seat counts of any seating (`seat_table`); (4) how many tables its players
    moved from the fill. So repeats go first, as in the Swiss system; no one leaves their
    score group unless that saves a repeat; players level on points may change tables so
    that each can be given a seat they have had less. The best swap is made each time (the
    first found of equal ones), until none lowers the total: deterministic, and it ends, as
    the total falls each time. Points are counted in integers here (times their common
    denominator): the same order, and many times faster than `Fraction`s."""

    def __init__(self, fill: list[list[int]], met: Mapping[tuple[int, int], int],
                 points: Mapping[int, Fraction], counts: Mapping[int, Counter[int]]) -> None:
        self.tables = [list(t) for t in fill]
        self.home = {p: i for i, t in enumerate(fill) for p in t}
        self.met, self.counts = met, counts
        scale = lcm(*(f.denominator for f in points.values()))
        self.points = {p: int(f * scale) for p, f in points.items()}
        self.seat_costs: dict[tuple[int, ...], int] = {}

    def pair_costs(self, players: Sequence[int]) -> tuple[int, int]:
        """The first two costs, of the table's pairs."""
        pairs = list(combinations(players, 2))
        return (sum(self.met.get(_pair(a, b), 0) ** 2 for a, b in pairs),
                sum(abs(self.points[a] - self.points[b]) for a, b in pairs))

    def cost(self, players: Sequence[int], index: int) -> Cost:
        return (*self.pair_costs(players), self.seat_cost(players),
                sum(abs(index - self.home[p]) for p in players))

    def seat_cost(self, players: Sequence[int]) -> int:
        key = tuple(sorted(players))
        if key not in self.seat_costs:
            seats = seat_table(key, self.counts)
            self.seat_costs[key] = sum(self.counts.get(p, Counter())[s]
                                       for s, p in enumerate(seats))
        return self.seat_costs[key]

    def best_swap(self, costs: list[Cost]) -> tuple[int, int, int, int] | None:
        """(table, index, other table, index) of the swap that lowers the total most."""
        best: tuple[Cost, tuple[int, int, int, int]] | None = None
        for i, j in combinations(range(len(self.tables)), 2):
            ti, tj = self.tables[i], self.tables[j]
            for a, b in ((a, b) for a in range(len(ti)) for b in range(len(tj))):
                new_i, new_j = [*ti[:a], tj[b], *ti[a + 1:]], [*tj[:b], ti[a], *tj[b + 1:]]
                pi, pj = self.pair_costs(new_i), self.pair_costs(new_j)
                first = (pi[0] + pj[0] - costs[i][0] - costs[j][0],
                         pi[1] + pj[1] - costs[i][1] - costs[j][1])
                if first > (0, 0) or (best is not None and first > best[0][:2]):
                    continue  # the rest cannot make it the best improvement
                ci, cj = self.cost(new_i, i), self.cost(new_j, j)
                delta = (*first, ci[2] + cj[2] - costs[i][2] - costs[j][2],
                         ci[3] + cj[3] - costs[i][3] - costs[j][3])
                if delta < (0, 0, 0, 0) and (best is None or delta < best[0]):
                    best = (delta, (i, a, j, b))
        return None if best is None else best[1]

    def run(self) -> list[list[int]]:
        tables = self.tables
        costs = [self.cost(t, i) for i, t in enumerate(tables)]
        while (swap := self.best_swap(costs)) is not None:
            i, a, j, b = swap
            tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
            costs[i], costs[j] = self.cost(tables[i], i), self.cost(tables[j], j)
        return tables


def seat_table(players: Sequence[int], counts: Mapping[int, Counter[int]]) -> tuple[int, ...]:
    """`players` (in standings order) in seat order: of all the ways to seat them, one that
    gives each the seats they have sat in least, i.e. with the smallest sum over them of
    how often each has already had the seat given. That sum is what the round adds to the
    sum of squares of everyone's seat counts, so it balances every seat, not the first
    alone. Of equal ways, the first in order, where the better placed take the earlier
    seats."""
    empty: Counter[int] = Counter()

    def cost(perm: tuple[int, ...]) -> int:
        return sum(counts.get(p, empty)[s] for p, s in zip(players, perm, strict=True))

    perm = min(permutations(range(len(players))), key=cost)
    seats = [0] * len(players)
    for player, seat in zip(players, perm, strict=True):
        seats[seat] = player
    return tuple(seats)
