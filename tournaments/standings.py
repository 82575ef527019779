"""From the stored rows to the pure modules' inputs, and the standings.

Everything here reads `Entry`, `Round`, `Table`, `Sitting` and the games' seats, and hands
them to `tournaments.swiss` (records and tie breaks for two-seat kinds, `express_tables` for
tables of more): the pairing of the next round and the standings are functions of the
stored games and byes alone, so they can be computed again from scratch at any time.

A round counts once it is finished (`Round.finished_at`): the standings are those after
the finished rounds. Cargo Connect's rounds become FIDE records (`_connect_record`); Cargo
Express's finished tables become `express_tables.Game`s with the engine's places.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.models import Game, Seat
from tournaments.models import Entry, Round, Sitting, Tournament
from tournaments.swiss import express_tables, tiebreaks
from tournaments.swiss.records import POINTS, Entrant, Outcome, RoundRecord
from tournaments.swiss.records import Seat as BoardSeat

CONNECT_BYE = Fraction(1)  # FIDE's pairing-allocated bye, a win (tournaments.swiss.records)


@dataclass(frozen=True)
class Line:
    """A line of the standings. `tie_breaks`: Buchholz and Sonneborn–Berger (two seats),
    opponents' average and Sonneborn–Berger (tables of more, per game); `rank` is shared by
    entrants level on points and tie breaks."""

    entry_id: int
    user_id: int
    rank: int
    points: Fraction
    tie_breaks: tuple[Fraction, Fraction]
    games: int
    byes: int
    withdrawn: bool


@dataclass
class Stored:
    """A tournament's rows as the pure modules need them: its entries, its finished rounds
    (or the rounds asked for), each round's sittings by table, the games' seats."""

    tournament: Tournament
    entries: list[Entry]
    rounds: list[Round]
    tables: dict[int, dict[int, list[Sitting]]]  # round id -> table id -> sittings by seat
    seats: dict[tuple[str, int], Seat]  # (game id, seat index) -> the game's seat

    def game_of(self, sittings: Sequence[Sitting]) -> Game | None:
        return sittings[0].table.game


def load(tournament: Tournament, *, finished_only: bool = True,
         rounds: Sequence[Round] | None = None) -> Stored:
    """The stored rows of `tournament`'s finished rounds (or of `rounds`)."""
    if rounds is None:
        query = Round.objects.filter(tournament=tournament)
        if finished_only:
            query = query.filter(finished_at__isnull=False)
        rounds = list(query.order_by("number"))
    tables: dict[int, dict[int, list[Sitting]]] = {r.id: defaultdict(list) for r in rounds}
    sittings = (Sitting.objects.filter(round__in=list(rounds))
                .select_related("table", "table__game").order_by("table__number", "seat"))
    game_ids = set()
    for sitting in sittings:
        tables[sitting.round_id][sitting.table_id].append(sitting)
        if sitting.table.game_id:
            game_ids.add(sitting.table.game_id)
    seats = {(s.game_id, s.index): s for s in Seat.objects.filter(game_id__in=game_ids)}
    entries = list(Entry.objects.filter(tournament=tournament).order_by("id"))
    return Stored(tournament, entries, list(rounds), tables, seats)


# --- two seats: FIDE records --------------------------------------------------------------


def _connect_record(sitting: Sitting, table: Sequence[Sitting], stored: Stored) -> RoundRecord:
    """One entrant's round at a table of two (or a bye). A forfeit is no game: the absent
    entrant loses it, the other wins it (both lose a game both missed). A game that ended
    with no result (voided after the round) counts as lost by forfeit for both."""
    if sitting.table.bye:
        return RoundRecord(Outcome.BYE)
    (other,) = [s for s in table if s.id != sitting.id]
    if sitting.forfeit:
        return RoundRecord(Outcome.FORFEIT_LOSS, opponent=other.entry_id)
    if other.forfeit:
        return RoundRecord(Outcome.FORFEIT_WIN, opponent=other.entry_id)
    seat = stored.seats.get((sitting.table.game_id or "", sitting.seat))
    outcome = {"win": Outcome.WIN, "draw": Outcome.DRAW, "loss": Outcome.LOSS}.get(
        seat.outcome if seat is not None else "")
    if outcome is None:
        return RoundRecord(Outcome.FORFEIT_LOSS, opponent=other.entry_id)
    return RoundRecord(outcome, opponent=other.entry_id,
                       seat=BoardSeat.FIRST if sitting.seat == 0 else BoardSeat.SECOND)


def connect_entrants(stored: Stored, pairing_round: int | None = None) -> list[Entrant]:
    """Every entry as a FIDE `Entrant` with one record per stored round (not seated: absent).
    For pairing round `pairing_round`, an entry withdrawn by then (or not yet in) is
    `withdrawn`: never paired."""
    history: dict[int, list[RoundRecord]] = {e.id: [] for e in stored.entries}
    for rnd in stored.rounds:
        seen = set()
        for table in stored.tables[rnd.id].values():
            for sitting in table:
                history[sitting.entry_id].append(_connect_record(sitting, table, stored))
                seen.add(sitting.entry_id)
        for entry_id, records in history.items():
            if entry_id not in seen:
                records.append(RoundRecord(Outcome.ABSENT))
    return [Entrant(e.id, e.rating, tuple(history[e.id]),
                    withdrawn=not _plays_in(e, pairing_round) if pairing_round else e.withdrawn)
            for e in stored.entries]


def _plays_in(entry: Entry, round_no: int) -> bool:
    return entry.first_round <= round_no and (entry.withdrew_round is None
                                              or round_no < entry.withdrew_round)


# --- tables of more: express_tables -----------------------------------------------------


def express_entrants(stored: Stored) -> list[express_tables.Entrant]:
    return [express_tables.Entrant(e.id, float(e.rating), e.first_round, e.withdrew_round)
            for e in stored.entries]


def express_rounds(stored: Stored) -> list[express_tables.Round]:
    """Each stored round's finished tables, with the engine's places, and its byes. A table
    whose game ended without a result (aborted before every seat decided, voided) counts
    for nobody."""
    out = []
    for rnd in stored.rounds:
        games: list[express_tables.Game] = []
        byes: list[int] = []
        for table in stored.tables[rnd.id].values():
            game = stored.game_of(table)
            if game is None:
                byes.extend(s.entry_id for s in table)
                continue
            places = [stored.seats[(game.id, s.seat)].place for s in table]
            if game.status == Game.Status.FINISHED and all(p is not None for p in places):
                games.append(express_tables.Game(tuple(s.entry_id for s in table),
                                                 tuple(p for p in places if p is not None)))
        out.append(express_tables.Round(tuple(games), tuple(byes)))
    return out


# --- the standings ----------------------------------------------------------------------------


def standings(tournament: Tournament) -> list[Line]:
    """The standings after the finished rounds, computed from scratch from the stored games
    and byes through the pure modules: best first, level entrants sharing a rank."""
    stored = load(tournament)
    users = {e.id: e.user_id for e in stored.entries}
    if tournament.table_size == 2:
        return _connect_standings(stored, users)
    table = express_tables.standings(express_entrants(stored), express_rounds(stored))
    return [Line(s.id, users[s.id], s.rank, s.points, (s.opponents_average, s.sonneborn_berger),
                 s.games, s.byes, s.withdrawn) for s in table]


def _connect_standings(stored: Stored, users: dict[int, int]) -> list[Line]:
    entrants = connect_entrants(stored)
    buchholz = tiebreaks.buchholz(entrants)
    sb = tiebreaks.sonneborn_berger(entrants)
    rating = {e.id: e.rating for e in stored.entries}

    def merit(e: Entrant) -> tuple[Fraction, Fraction, Fraction]:
        return (-Fraction(e.score), -Fraction(buchholz[e.id]), -Fraction(sb[e.id]))

    ordered = sorted(entrants, key=lambda e: (*merit(e), -rating[e.id], e.id))
    lines: list[Line] = []
    for i, e in enumerate(ordered):
        rank = lines[-1].rank if lines and merit(ordered[i - 1]) == merit(e) else i + 1
        lines.append(Line(e.id, users[e.id], rank, Fraction(e.score),
                          (Fraction(buchholz[e.id]), Fraction(sb[e.id])),
                          sum(r.played for r in e.history),
                          sum(r.outcome is Outcome.BYE for r in e.history), e.withdrawn))
    return lines


def round_points(stored: Stored, rnd: Round) -> dict[int, Fraction]:
    """What each entrant seated in `rnd` scored in it, from that round's tables alone (kept
    on `Entry.points` as rounds finish; the standings recompute it from every round)."""
    points: dict[int, Fraction] = {}
    two = stored.tournament.table_size == 2
    for table in stored.tables[rnd.id].values():
        game = stored.game_of(table)
        if game is None:
            for s in table:
                points[s.entry_id] = CONNECT_BYE if two else express_tables.BYE_POINTS
        elif two:
            for s in table:
                points[s.entry_id] = Fraction(POINTS[_connect_record(s, table, stored).outcome])
        else:
            places = [stored.seats[(game.id, s.seat)].place for s in table]
            gained = (express_tables.place_points([p for p in places if p is not None])
                      if game.status == Game.Status.FINISHED and None not in places
                      else [Fraction(0)] * len(table))
            for s, g in zip(table, gained, strict=True):
                points[s.entry_id] = g
    return points
