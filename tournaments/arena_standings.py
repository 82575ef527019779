"""An arena's stored games as the pure scoring reads them, and the reads built on them
(docs/tournaments-arena.md, "On the site"): the rows of one arena (`load`: entries,
pairings in the order made, each game's seats), a pairing's game as `scoring` sees it
(`arena_game`: None while it does not count), the standings from scratch (`standings`),
the places from the entries' kept sheets (`ranking`: what the live pages and the pass
read), and a member's game in progress (`current_pairing`; several members' entries and
games at once: `members`). Reads only, below the moving parts
(`tournaments.arenas`) and the pages (`tournaments.arena_pages`, `tournaments.pages`), so
the live sections (`tournaments.live`) read an arena without importing what sends them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from games.models import Game, Seat
from tournaments.arena import scoring
from tournaments.models import Entry, Pairing, Tournament

RULES = scoring.ArenaRules()


@dataclass
class Stored:
    """An arena's rows: its entries, its pairings in the order made, each game's seats."""

    tournament: Tournament
    entries: list[Entry]
    pairings: list[Pairing]
    seats: dict[tuple[str, int], Seat]

    def counted(self) -> list[scoring.ArenaGame]:
        """The finished games that count, in the order played: finished with a result, not
        forfeited."""
        return [g for p in self.pairings if (g := arena_game(p, self.seats)) is not None]

    def busy(self) -> set[int]:
        """The entries in an active game of this arena now."""
        return {e for p in self.pairings if p.game.status == Game.Status.ACTIVE
                for e in p.entry_ids()}


def load(tournament: Tournament) -> Stored:
    entries = list(Entry.objects.filter(tournament=tournament).order_by("id"))
    pairings = list(Pairing.objects.filter(tournament=tournament).select_related("game")
                    .order_by("id"))
    seats = {(s.game_id, s.index): s
             for s in Seat.objects.filter(game_id__in=[p.game_id for p in pairings])}
    return Stored(tournament, entries, pairings, seats)


def arena_game(pairing: Pairing, seats: dict[tuple[str, int], Seat]
               ) -> scoring.ArenaGame | None:
    """A pairing's game as scoring reads it, or None if it does not count (still playing,
    aborted, voided, forfeited, no result stored)."""
    game = pairing.game
    if game.status != Game.Status.FINISHED or pairing.forfeit is not None:
        return None
    outcomes = [getattr(seats.get((game.id, i)), "outcome", None) for i in (0, 1)]
    if None in outcomes:
        return None
    winner = (pairing.blue_id if outcomes[0] == "win"
              else pairing.orange_id if outcomes[1] == "win" else None)
    return scoring.ArenaGame(pairing.blue_id, pairing.orange_id, winner, game.ply,
                             pairing.blue_berserk, pairing.orange_berserk)


def standings(tournament: Tournament, stored: Stored | None = None
              ) -> tuple[scoring.Standing, ...]:
    """Every entrant ranked, from scratch from the stored games (`scoring.standings`)."""
    stored = stored or load(tournament)
    entrants = [scoring.Entrant(e.id, e.rating) for e in stored.entries]
    return scoring.standings(entrants, stored.counted(), RULES)


def ranking(tournament: Tournament, entries: Iterable[Entry] | None = None
            ) -> tuple[scoring.Place, ...]:
    """Every entrant ranked from the sheets kept on the entries (`Entry.points`, `games`,
    `performance_sum`, moved on as each game ends): the order and figures of `standings`
    (a test compares them) without reading a game. `entries`: all of the arena's, when
    the caller has read them."""
    if entries is None:
        entries = Entry.objects.filter(tournament=tournament).only(
            "id", "rating", "points", "games", "performance_sum")
    return scoring.ranked(scoring.Kept(e.id, e.rating, int(e.points), e.games,
                                       e.performance_sum) for e in entries)


@dataclass(frozen=True)
class Played:
    """A pairing as the pass reads it: its players, whether its game is running or
    finished, and when it ended (or began, while it runs)."""

    blue_id: int
    orange_id: int
    active: bool
    finished: bool
    ended: dt.datetime


@dataclass
class Roster:
    """What a pairing pass reads of an arena: its entries and its pairings in the order
    made, as `Played` rows (no game, seat or sheet is read: the places are the entries'
    kept sheets, `ranking`)."""

    entries: list[Entry]
    played: list[Played]

    def busy(self) -> set[int]:
        """The entries in an active game of this arena now."""
        return {e for p in self.played if p.active for e in (p.blue_id, p.orange_id)}


def roster(tournament: Tournament) -> Roster:
    entries = list(Entry.objects.filter(tournament=tournament).order_by("id"))
    rows = (Pairing.objects.filter(tournament=tournament).order_by("id")
            .values_list("blue_id", "orange_id", "game__status", "game__created_at",
                         "game__finished_at"))
    return Roster(entries, [Played(blue, orange, status == Game.Status.ACTIVE,
                                   status == Game.Status.FINISHED, finished or created)
                            for blue, orange, status, created, finished in rows])


def current_pairing(tournament: Tournament, user: Any) -> Pairing | None:
    """The member's game of this arena in progress, if any."""
    return (Pairing.objects.filter(tournament=tournament, game__status=Game.Status.ACTIVE)
            .filter(Q(blue__user=user) | Q(orange__user=user))
            .select_related("blue", "orange", "game").first())


@dataclass(frozen=True)
class Member:
    """A member's own rows in an arena, read once for their own sections: their entry
    (None: not entered) and their game in progress (its players and game read with it)."""

    entry: Entry | None
    pairing: Pairing | None


def members(tournament: Tournament, user_ids: Iterable[int]) -> dict[int, Member]:
    """`Member` of each of `user_ids`, in two queries however many they are (a pass
    renders the own sections of every member it paired)."""
    ids = list(user_ids)
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=tournament,
                                                          user_id__in=ids)}
    playing: dict[int, Pairing] = {}
    for p in (Pairing.objects.filter(tournament=tournament, game__status=Game.Status.ACTIVE)
              .filter(Q(blue__user_id__in=ids) | Q(orange__user_id__in=ids))
              .select_related("blue__user", "orange__user", "game")):
        playing[p.blue.user_id] = playing[p.orange.user_id] = p
    return {i: Member(entries.get(i), playing.get(i)) for i in ids}
