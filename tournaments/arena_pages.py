"""What a tournament's page shows of an arena (docs/tournaments-arena.md, "On the site"), read
from the stored rows for `tournaments.pages`: the shared `arena` section (`arena_of`: the
places from the entries' kept sheets (`tournaments.arena_standings.ranking`) with each
shown player's sheet
(the points of each game, the ones played on fire and the berserk wins marked), the podium
once finished, the latest games), rendered once for every viewer, and a member's own part
(`own_of`: their game in progress, whether they may berserk it now, paused), their `play`
section. Reads only: every change goes through `tournaments.services`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from games.kinds import KindError, get_kind
from games.models import Game, Seat
from tournaments import arena_standings as arenas
from tournaments.arena import scoring
from tournaments.models import Entry, Pairing, Tournament

# The shared section goes to every socket on the page at each result and pairing: it
# shows the top of the standings and the latest games only, and the whole standings are a
# page of their own (`standings_page`). At 200 players every line with its sheet made a
# frame of up to 278 KB, twice a second to 200 sockets (docs/tournaments-arena.md, "Load").
LINES_SHOWN = 10  # the top of the standings in the shared section (lichess shows ten)
GAMES_SHOWN = 10  # the latest games listed


@dataclass
class Mark:
    """One game on a sheet as shown: its points, played on fire, a berserk that counted."""

    points: int
    fire: bool
    berserk: bool
    quick_draw: bool

    @property
    def words(self) -> str:
        said = [f"{self.points} point{'s' if self.points != 1 else ''}"]
        if self.fire:
            said.append("on fire")
        if self.berserk:
            said.append("berserk")
        if self.quick_draw:
            said.append("quick draw")
        return ", ".join(said)


@dataclass
class Line:
    rank: int
    username: str
    total: int
    performance: int
    games: int
    marks: list[Mark]
    on_fire: bool
    withdrawn: bool
    paused: bool


@dataclass
class GameRow:
    game_id: str
    blue: str
    orange: str
    result: str
    active: bool
    berserk: list[str]


@dataclass
class ArenaView:
    ends_at: dt.datetime | None
    over: bool  # the end time has passed (games may still be running)
    lines: list[Line]  # the top `LINES_SHOWN` (every line: `arena_of(..., every_line=True)`)
    podium: list[Line]
    games: list[GameRow]
    seat_names: tuple[str, str] = ("Blue", "Orange")
    active_games: int = 0
    entrants: int = 0  # every line of the standings, shown or not
    played: int = 0  # the games the standings count (each counts for its two players)


@dataclass
class Own:
    """A member's own part of an arena's page (their `play` section)."""

    entered: bool = False
    paused: bool = False
    playing: str | None = None  # their game in progress
    may_berserk: bool = False
    over: bool = False  # the end time has passed
    open: bool = False  # scheduled or running


def _marks(sheet: scoring.Sheet) -> list[Mark]:
    return [Mark(s.points, s.fire, s.berserk is scoring.Berserk.VALID, s.quick_draw)
            for s in sheet.scores]


def _over(tournament: Tournament, now: dt.datetime) -> bool:
    return tournament.ends_at is not None and now >= tournament.ends_at


def arena_of(tournament: Tournament, now: dt.datetime | None = None,
             every_line: bool = False) -> ArenaView:
    """The arena's shared section of its page, the same for every viewer (nobody marked:
    the page marks its own row and game): the top `LINES_SHOWN` lines of the standings,
    or all of them (`every_line`: the standings' own page). The places come from the
    entries' kept sheets (`arenas.ranking`); only the games of the players shown (their
    sheets) and the latest games are read."""
    now = now or timezone.now()
    entries = {e.id: e for e in Entry.objects.filter(tournament=tournament).order_by("id")}
    places = arenas.ranking(tournament, entries.values())
    shown = list(places if every_line else places[:LINES_SHOWN])
    finished = tournament.status == Tournament.Status.FINISHED
    on_podium = [p for p in places if p.games > 0][:scoring.PODIUM_PLACES] if finished else []
    ids = {p.id for p in shown} | {p.id for p in on_podium}
    latest = list(Pairing.objects.filter(tournament=tournament).select_related("game")
                  .order_by("-id")[:GAMES_SHOWN])
    theirs = (Pairing.objects.filter(tournament=tournament)
              .filter(Q(blue_id__in=ids) | Q(orange_id__in=ids)).select_related("game")
              .order_by("id")) if ids else []
    stored = arenas.Stored(tournament, list(entries.values()), list(theirs), {})
    stored.seats = {(s.game_id, s.index): s for s in Seat.objects.filter(
        game_id__in={p.game_id for p in [*stored.pairings, *latest]})}
    counted = stored.counted()
    users = {entries[i].user_id for i in ids} | {
        entries[e].user_id for p in latest for e in (p.blue_id, p.orange_id)}
    names = dict(get_user_model().objects.filter(pk__in=users).values_list("pk", "username"))

    def name(entry_id: int) -> str:
        return names.get(entries[entry_id].user_id, "?")

    def line(place: scoring.Place) -> Line:
        sheet = scoring.sheet_of(place.id, counted, arenas.RULES)
        entry = entries[place.id]
        return Line(place.rank, name(place.id), place.total, round(place.performance),
                    place.games, _marks(sheet), sheet.on_fire, entry.withdrawn, entry.paused)

    lines = {p.id: line(p) for p in [*shown, *on_podium]}
    rows = [GameRow(p.game_id, name(p.blue_id), name(p.orange_id), _result(p, stored),
                    p.game.status == Game.Status.ACTIVE,
                    [name(e) for e, b in ((p.blue_id, p.blue_berserk),
                                          (p.orange_id, p.orange_berserk)) if b])
            for p in latest]
    active = Pairing.objects.filter(tournament=tournament,
                                    game__status=Game.Status.ACTIVE).count()
    view = ArenaView(tournament.ends_at, _over(tournament, now),
                     [lines[p.id] for p in shown], [lines[p.id] for p in on_podium], rows,
                     active_games=active, entrants=len(places),
                     played=sum(p.games for p in places) // 2)
    try:
        kind = get_kind(tournament.game_type)
        view.seat_names = (kind.seat_label(0), kind.seat_label(1))
    except KindError:  # a kind since removed: the default names
        pass
    return view


def own_of(tournament: Tournament, user: Any, now: dt.datetime | None = None,
           member: arenas.Member | None = None) -> Own:
    """`user`'s own part of the arena's page (a visitor: nothing of their own); `member`:
    their rows, when the caller read them (`arena_standings.members`)."""
    now = now or timezone.now()
    own = Own(over=_over(tournament, now), open=tournament.status in (
        Tournament.Status.SCHEDULED, Tournament.Status.RUNNING))
    if not getattr(user, "is_authenticated", False):
        return own
    if member is None:
        member = arenas.Member(Entry.objects.filter(tournament=tournament, user=user).first(),
                               arenas.current_pairing(tournament, user))
    entry = member.entry
    if entry is not None:
        own.entered = not entry.withdrawn
        own.paused = entry.paused
    pairing = member.pairing
    if pairing is not None:
        own.playing = pairing.game_id
        own.may_berserk = _may_berserk(tournament, pairing, user)
    return own


def _result(p: Pairing, stored: arenas.Stored) -> str:
    game = p.game
    if game.status == Game.Status.ACTIVE:
        return "in progress"
    if p.forfeit is not None:
        return "forfeit"
    counted = arenas.arena_game(p, stored.seats)
    if counted is None:
        return game.get_status_display().lower()
    if counted.winner is None:
        return "½–½"
    return "1–0" if counted.winner == p.blue_id else "0–1"


def _may_berserk(tournament: Tournament, pairing: Pairing, user: Any) -> bool:
    """Would a berserk be taken now (the button is shown only then)?"""
    seat = 0 if pairing.blue.user_id == user.pk else 1
    done = pairing.blue_berserk if seat == 0 else pairing.orange_berserk
    if done or not tournament.berserk:
        return False
    return not pairing.game.turns.filter(seat=seat).exists()


def game_of(tournament: Tournament, user: Any) -> str | None:
    """The member's game of this arena in progress (its id), if any."""
    pairing = arenas.current_pairing(tournament, user)
    return pairing.game_id if pairing is not None else None
