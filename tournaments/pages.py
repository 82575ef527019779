"""What the tournament pages show (docs/tournaments.md, "Pages"), read from the stored rows
for `tournaments.views`: the list grouped upcoming / running / finished, one tournament's
header, its standings (`tournaments.standings.standings`, with the players' names), each
round's tables with their seats, results and games, and the viewer's own state (entered,
withdrawn, a game of the tournament in progress: a round's table, or an arena's pairing).
An arena's page has one section of its own (`arena`, `tournaments.arena_pages`) in place
of the standings and the rounds. Reads only: every change goes through
`tournaments.services`."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from games.kinds import GameKind, KindError, all_kinds, first_kinds_first, get_kind
from games.models import Game, Seat
from games.timing import clocks
from tournaments import arena_pages, arena_standings
from tournaments.models import Entry, Round, Sitting, Tournament
from tournaments.standings import standings

GROUPS = (
    ("upcoming", "Upcoming", (Tournament.Status.SCHEDULED,)),
    ("running", "Running", (Tournament.Status.RUNNING,)),
    ("finished", "Finished", (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)),
)
FINISHED_SHOWN = 50  # the most recent finished tournaments listed


def tournament_kinds() -> list[GameKind]:
    """The kinds a tournament may be of: the lobby's, the default game first."""
    return first_kinds_first([k for k in all_kinds() if k.in_lobby])


def kind_name(key: str) -> str:
    try:
        return get_kind(key).name
    except KindError:
        return key


def time_control_label(code: str) -> str:
    control = clocks.parse(code)
    if control is None:
        return "Untimed"
    return f"{code} · {control.description}" if control.live else control.label.capitalize()


def fraction_text(value: Fraction) -> str:
    """Points as people write them: 2, 2½, 7/3 (Cargo Express's thirds)."""
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(whole)
    if rest == Fraction(1, 2):
        return f"{whole}½" if whole else "½"
    return f"{float(value):.2f}"


@dataclass
class Row:
    """A tournament as the list shows it."""

    tournament: Tournament
    game: str
    time_control: str
    players: int


def listing(game: str | None) -> dict[str, list[Row]]:
    """The tournaments by group (upcoming: soonest first; running and finished: latest
    first), of one kind if `game` is given."""
    query: QuerySet[Tournament] = Tournament.objects.annotate(
        players=Count("entries", filter=Q(entries__withdrew_round__isnull=True)))
    if game:
        query = query.filter(game_type=game)
    out: dict[str, list[Row]] = {}
    for key, _label, statuses in GROUPS:
        rows = query.filter(status__in=statuses)
        rows = rows.order_by("starts_at") if key == "upcoming" else rows.order_by("-starts_at")
        if key == "finished":
            rows = rows[:FINISHED_SHOWN]
        out[key] = [Row(t, kind_name(t.game_type), time_control_label(t.time_control),
                        t.players) for t in rows]  # type: ignore[attr-defined]
    return out


def group_of(tournament: Tournament) -> str:
    """The list's group a tournament is in ("upcoming", "running", "finished")."""
    return next(key for key, _label, statuses in GROUPS if tournament.status in statuses)


def row_of(tournament: Tournament) -> Row:
    """One tournament as the list shows it (its row alone, for the live list)."""
    players = tournament.entries.filter(withdrew_round__isnull=True).count()
    return Row(tournament, kind_name(tournament.game_type),
               time_control_label(tournament.time_control), players)


@dataclass
class Place:
    """A seat at a table: who sat there and how it went for them."""

    username: str
    seat: str
    result: str
    forfeit: bool


@dataclass
class TableView:
    number: int
    bye: bool
    game_id: str | None
    places: list[Place]
    result: str
    active: bool


@dataclass
class RoundView:
    number: int
    finished: bool
    tables: list[TableView] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)


@dataclass
class Standing:
    rank: int
    username: str
    points: str
    tie_breaks: tuple[str, str]
    games: int
    byes: int
    withdrawn: bool


def tie_break_names(tournament: Tournament) -> tuple[tuple[str, str], tuple[str, str]]:
    """The two tie breaks `standings()` gives, as the table's headers: (name, short)."""
    if tournament.table_size == 2:
        return (("Buchholz", "BH"), ("Sonneborn–Berger", "SB"))
    return (("Opponents' average", "OA"), ("Sonneborn–Berger", "SB"))


def standings_of(tournament: Tournament) -> list[Standing]:
    lines = standings(tournament)
    names = dict(get_user_model().objects.filter(pk__in=[line.user_id for line in lines])
                 .values_list("pk", "username"))
    return [Standing(line.rank, names.get(line.user_id, "?"), fraction_text(line.points),
                     (fraction_text(line.tie_breaks[0]), fraction_text(line.tie_breaks[1])),
                     line.games, line.byes, line.withdrawn) for line in lines]


def _seat_result(seat: Seat | None, two: bool, game: Game | None) -> str:
    if seat is None or game is None or game.status != Game.Status.FINISHED:
        return ""
    if two:
        return {"win": "1", "draw": "½", "loss": "0"}.get(seat.outcome or "", "")
    return _ordinal(seat.place) if seat.place else ""


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
    return f"{n}{suffix}"


def _table_result(game: Game | None, places: list[Place], two: bool) -> str:
    if game is None:
        return "bye"
    if game.status == Game.Status.ACTIVE:
        return "in progress"
    if game.status != Game.Status.FINISHED:
        return game.get_status_display().lower()
    if two and all(p.result for p in places):
        return "–".join(p.result for p in places)
    return "finished"


def rounds_of(tournament: Tournament) -> list[RoundView]:
    """Every started round, latest first, with its tables in board order and its byes."""
    kind = _kind(tournament)
    two = tournament.table_size == 2
    rounds = list(Round.objects.filter(tournament=tournament).order_by("-number"))
    sittings = (Sitting.objects.filter(round__in=rounds)
                .select_related("table", "table__game", "entry__user")
                .order_by("table__number", "seat"))
    by_table: dict[int, list[Sitting]] = {}
    for s in sittings:
        by_table.setdefault(s.table_id, []).append(s)
    game_ids = [s[0].table.game_id for s in by_table.values() if s[0].table.game_id]
    seats = {(s.game_id, s.index): s for s in Seat.objects.filter(game_id__in=game_ids)}
    views = {r.id: RoundView(r.number, r.finished_at is not None) for r in rounds}
    for table_sittings in by_table.values():
        table = table_sittings[0].table
        view = views[table.round_id]
        if table.bye:
            view.byes += [s.entry.user.username for s in table_sittings]
            continue
        game = table.game
        places = [Place(s.entry.user.username, _seat_name(kind, s.seat),
                        _seat_result(seats.get((table.game_id or "", s.seat)), two, game),
                        s.forfeit)
                  for s in table_sittings]
        view.tables.append(TableView(table.number, False, table.game_id, places,
                                     _table_result(game, places, two),
                                     game is not None and game.status == Game.Status.ACTIVE))
    return [views[r.id] for r in rounds]


def _kind(tournament: Tournament) -> GameKind | None:
    try:
        return get_kind(tournament.game_type)
    except KindError:
        return None


def _seat_name(kind: GameKind | None, seat: int) -> str:
    return kind.seat_label(seat) if kind is not None else f"Seat {seat + 1}"


@dataclass
class Viewer:
    """The signed-in viewer in this tournament: their entry (None: not entered) and the
    game of the tournament they are playing now."""

    entry: Entry | None
    playing: str | None

    @property
    def entered(self) -> bool:
        return self.entry is not None and not self.entry.withdrawn


def viewer_of(tournament: Tournament, user: Any,
              member: arena_standings.Member | None = None) -> Viewer:
    """`user` in `tournament`: their entry and their game in progress (a Swiss: their
    table's in the running round; an arena: their pairing's, or `member`'s when the caller
    read it)."""
    if not getattr(user, "is_authenticated", False):
        return Viewer(None, None)
    if member is not None:
        return Viewer(member.entry, member.pairing.game_id if member.pairing else None)
    entry = Entry.objects.filter(tournament=tournament, user=user).first()
    playing = None
    if entry is not None and tournament.arena:
        pairing = arena_standings.current_pairing(tournament, user)
        playing = pairing.game_id if pairing is not None else None
    elif entry is not None:
        playing = (Sitting.objects.filter(entry=entry, table__game__status=Game.Status.ACTIVE)
                   .values_list("table__game_id", flat=True).first())
    return Viewer(entry, playing)


@dataclass(frozen=True)
class Ranking:
    """Every entrant's place and points now, by member id: a Swiss's standings after its
    finished rounds, an arena's from its games. Read once for a change and shared by every
    member's "Your entry" it renders."""

    places: dict[int, tuple[int, str, int]]  # member id -> (rank, points in words, games)

    @property
    def size(self) -> int:
        return len(self.places)


def ranking_of(tournament: Tournament) -> Ranking:
    """`Ranking` of `tournament` (empty before any standings exist)."""
    if tournament.arena:
        rows = list(Entry.objects.filter(tournament=tournament).only(
            "id", "user_id", "rating", "points", "games", "performance_sum"))
        users = {e.id: e.user_id for e in rows}
        return Ranking({users[s.id]: (s.rank, str(s.total), s.games)
                        for s in arena_standings.ranking(tournament, rows)})
    if not tournament.round_set.filter(finished_at__isnull=False).exists():
        return Ranking({})
    return Ranking({line.user_id: (line.rank, fraction_text(line.points), line.games)
                    for line in standings(tournament)})


@dataclass
class YourEntry:
    """The viewer's own "Your entry" (templates/tournaments/_entry.html): joined or not,
    what they may do (join, withdraw), and once they play, their place, points and
    pairing. Sent to that member's sockets alone (`tournaments.live`)."""

    signed_in: bool = False
    entry: Entry | None = None
    open: bool = False
    can_join: bool = False
    can_withdraw: bool = False
    rank: int | None = None
    of: int = 0
    points: str = ""
    games: int = 0  # the games their points count (an arena's: finished, not forfeited)
    pairing: str = ""  # their current (or latest) game or bye, in words

    @property
    def entered(self) -> bool:
        return self.entry is not None and not self.entry.withdrawn


def your_entry(tournament: Tournament, user: Any, ranking: Ranking | None = None,
               member: arena_standings.Member | None = None) -> YourEntry:
    """`user`'s "Your entry" now; `ranking` (and an arena's `member`) when the caller read
    them for several members."""
    is_open = tournament.status in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING)
    if not getattr(user, "is_authenticated", False):
        return YourEntry(open=is_open)
    entry = (member.entry if member is not None
             else Entry.objects.filter(tournament=tournament, user=user).first())
    own = YourEntry(signed_in=True, entry=entry, open=is_open, can_join=entry is None)
    if entry is None:
        return own
    own.can_withdraw = own.entered and is_open
    ranked = ranking if ranking is not None else ranking_of(tournament)
    place = ranked.places.get(user.pk)
    if place is not None:
        (own.rank, own.points, own.games), own.of = place, ranked.size
    own.pairing = _pairing_words(tournament, entry, member)
    return own


def _pairing_words(tournament: Tournament, entry: Entry,
                   member: arena_standings.Member | None = None) -> str:
    """The entrant's game now (an arena's) or in the latest round (a Swiss's), in words."""
    kind = _kind(tournament)
    if tournament.arena:
        pairing = (member.pairing if member is not None
                   else arena_standings.current_pairing(tournament, entry.user))
        if pairing is None:
            return ""
        seat = 0 if pairing.blue_id == entry.pk else 1
        other = pairing.orange if seat == 0 else pairing.blue
        return f"Playing {_seat_name(kind, seat)} against {other.user.username}"
    sitting = (Sitting.objects.filter(entry=entry).select_related("round", "table__game")
               .order_by("-round__number").first())
    if sitting is None:
        return ""
    number = sitting.round.number
    if sitting.table.bye:
        return f"Round {number}: a bye"
    others = (Sitting.objects.filter(table=sitting.table).exclude(pk=sitting.pk)
              .order_by("seat").values_list("entry__user__username", flat=True))
    game = sitting.table.game
    state = "in progress" if game is not None and game.status == Game.Status.ACTIVE \
        else "played"
    where = "board" if tournament.table_size == 2 else "table"
    against = "against" if tournament.table_size == 2 else "with"
    return (f"Round {number}, {where} {sitting.table.number}: "
            f"{_seat_name(kind, sitting.seat)} {against} {', '.join(others)} ({state})")


def players_of(tournament: Tournament) -> list[str]:
    """The entrants still in, by when they joined (before the first round: no standings)."""
    return list(Entry.objects.filter(tournament=tournament, withdrew_round__isnull=True)
                .order_by("id").values_list("user__username", flat=True))


@dataclass(frozen=True)
class Countdown:
    """A time the page counts down to: when it is and the milliseconds left when this was
    read (the page counts down from them in the browser's own time: no clock of the
    viewer's is trusted). A running arena's time left is one."""

    at: Any  # dt.datetime
    ms: int

    @property
    def text(self) -> str:
        seconds = -(-self.ms // 1000)
        return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass(frozen=True)
class NextRound(Countdown):
    """A Swiss in its pause between rounds: the next round's number, and when it is due."""

    number: int


def next_round_of(tournament: Tournament) -> NextRound | None:
    """The pause's countdown, or None when the tournament is not between rounds."""
    if tournament.arena or tournament.status != Tournament.Status.RUNNING:
        return None
    current = tournament.round_set.order_by("-number").first()
    due = tournament.next_round_at(current)
    if current is None or due is None:
        return None
    left = (due - timezone.now()).total_seconds()
    return NextRound(at=due, ms=max(0, round(left * 1000)), number=current.number + 1)


def time_left_of(tournament: Tournament) -> Countdown | None:
    """A running arena's time left, or None (not an arena, not running, or its time is up:
    the games still being played count when they end)."""
    if not tournament.arena or tournament.status != Tournament.Status.RUNNING:
        return None
    ends = tournament.ends_at
    left = (ends - timezone.now()).total_seconds() if ends is not None else 0
    return Countdown(ends, round(left * 1000)) if left > 0 else None


def pause_words(seconds: int) -> str:
    """A Swiss's pause between rounds, in words ("1 minute", "90 seconds", "None")."""
    if not seconds:
        return "None"
    if seconds % 60:
        return f"{seconds} seconds"
    minutes = seconds // 60
    return f"{minutes} minute{'s' if minutes > 1 else ''}"


# --- the page's sections (templates/tournaments/_<name>.html), shown live ----------------

SECTIONS = ("facts", "play", "entry", "standings", "rounds", "arena")
SWISS_SECTIONS = ("facts", "play", "entry", "standings", "rounds")
ARENA_SECTIONS = ("facts", "play", "entry", "arena")  # an arena's own: standings and games
OWN = ("play", "entry")  # a member's own sections: sent to their sockets alone


def sections_of(tournament: Tournament) -> tuple[str, ...]:
    """The sections `tournament`'s page has."""
    return ARENA_SECTIONS if tournament.arena else SWISS_SECTIONS


def section_context(tournament: Tournament, names: tuple[str, ...] | list[str] = SECTIONS,
                    you: str = "", user: Any = None, playing: str | None = None,
                    ranking: Ranking | None = None,
                    member: arena_standings.Member | None = None) -> dict[str, Any]:
    """What the partials of `names` read: the page renders them all for its viewer; the
    live frames (tournaments.live) render them for nobody in particular (`you` "", no
    `user`, no game) once for every socket, or a member's own "Play now" (`playing`; an
    arena's: `user`'s own part, `arena_pages.own_of`) for them."""
    context: dict[str, Any] = {"t": tournament, "you": you, "playing": playing}
    if "entry" in names:
        context["your"] = your_entry(tournament, user, ranking, member)
    if "play" in names and tournament.arena:
        context["own"] = arena_pages.own_of(tournament, user, member=member)
    if "arena" in names and tournament.arena:
        context["arena"] = arena_pages.arena_of(tournament)
    if "facts" in names:
        context["game"] = kind_name(tournament.game_type)
        context["time_control"] = time_control_label(tournament.time_control)
        context["next_round"] = next_round_of(tournament)
        context["time_left"] = time_left_of(tournament)
        context["pause"] = pause_words(tournament.round_pause)
    if "standings" in names:
        started = tournament.round_set.exists()
        context["standings"] = standings_of(tournament) if started else []
        context["finished_rounds"] = tournament.round_set.filter(
            finished_at__isnull=False).count()
        context["tie_breaks"] = tie_break_names(tournament)
        context["players"] = players_of(tournament)
    if "rounds" in names:
        context["rounds"] = rounds_of(tournament)
    return context
