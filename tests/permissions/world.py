"""The people and the situations the permission matrix is asserted over (tests/permissions/
matrix.py says what each may do). Everything is made through the site's services, as the
site makes it.

People (`People`): alice (the player), bob (the opponent), carol (a spectator member), sam
(staff: `is_staff`, no permissions), vera (staff with every view permission of the site's
apps: the admin's read-only support role), max (staff with their view and change
permissions: a moderator and curator), root (a superuser), and two guest browser
sessions, each holding the seat of its own game against CargoBot: one is the player of
the `guest-bot` scenario, the other is the matrix's "guest", who holds no seat of the game
at hand.

Scenes (`build(name, people)`): one game (or challenge, or puzzle week) per scenario of
`matrix.SCENARIOS`, and the values its rows' URLs and forms need.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import Player
from chat.models import Message as ChatMessage
from chat.models import Mute, Report, Silence
from games import services
from games.actors import Actor
from games.models import Challenge, Game, GameReview, Seat, TableSeat, Turn
from notifications.models import PushSubscription
from puzzles.daily import clock
from puzzles.daily import services as daily
from puzzles.daily.models import DailyGame
from puzzles.models import Progress, Puzzle, Week
from tournaments.models import Entry, Pairing, Schedule, Tournament

PASSWORD = "a-long-cargo-pass"
ADMIN_APPS = ("games", "daily", "puzzles", "rankings", "accounts", "chat", "tournaments")
# A 5×5 one-turn puzzle: three Blue cores in column a; dropping into a makes an I.
PUZZLE_RECORD = ('[Size "5"]\n[Rules "0.92"]\n'
                 '[Start "...../...../B..../B..../B.... b - - - - - 0 0 0 0.92"]\n'
                 '[Goal "unload:I"]\n[Turns "1"]\n')


def guest_session() -> str:
    """A saved browser session of someone who is not signed in: a guest."""
    store = SessionStore()
    store.create()
    assert store.session_key is not None
    return store.session_key


@dataclass
class People:
    users: dict[str, Any]
    seated_guest: str  # the session that holds the guest's game's seat
    guest: str  # a guest session that holds no seat

    def client(self, role: str, scene: Scene) -> Client:
        """A browser acting as `role` in `scene`."""
        client = Client()
        if role == "player" and scene.player_guest:
            client.cookies["sessionid"] = scene.player_guest
        elif role == "guest":
            client.cookies["sessionid"] = self.guest
        elif role in ROLE_USERS:
            client.force_login(self.users[ROLE_USERS[role]])
        elif role != "signed_out":
            raise KeyError(role)
        return client

    def session_cookie(self, role: str, scene: Scene) -> bytes:
        """The Cookie header a browser acting as `role` sends to a socket."""
        if role == "signed_out":
            return b""
        client = self.client(role, scene)
        return f"sessionid={client.cookies['sessionid'].value}".encode()


ROLE_USERS = {"player": "alice", "opponent": "bob", "spectator": "carol", "staff": "sam",
              "staff_view": "vera", "superuser": "root", "member": "carol"}


def make_people() -> People:
    User = get_user_model()
    users = {name: User.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in ("alice", "bob", "carol")}
    users["sam"] = User.objects.create_user("sam", "sam@example.com", PASSWORD, is_staff=True)
    vera = User.objects.create_user("vera", "vera@example.com", PASSWORD, is_staff=True)
    vera.user_permissions.set(Permission.objects.filter(
        content_type__app_label__in=ADMIN_APPS, codename__startswith="view_"))
    users["vera"] = vera
    max_ = User.objects.create_user("max", "max@example.com", PASSWORD, is_staff=True)
    max_.user_permissions.set(Permission.objects.filter(
        content_type__app_label__in=ADMIN_APPS,
        codename__regex=r"^(view|change)_"))
    users["max"] = max_
    users["root"] = User.objects.create_superuser("root", "root@example.com", PASSWORD)
    people = People(users, seated_guest=guest_session(), guest=guest_session())
    _bot_game(Actor.guest(people.guest))  # the guest's seat is in a game of their own
    return people


@dataclass
class Scene:
    """One scenario, made: what its rows need."""

    name: str
    game: Game | None = None
    challenge: Challenge | None = None
    player_guest: str | None = None  # the player is this guest session, not alice
    kwargs: dict[str, Any] = field(default_factory=dict)  # URL values by name
    secrets: list[str] = field(default_factory=list)  # never in any response or frame

    @property
    def game_id(self) -> str:
        assert self.game is not None
        return self.game.id

    def fresh(self) -> Game:
        return services.get_game(self.game_id)

    def player_token(self) -> str:
        """A legal decision for the player's seat now (the first legal drop)."""
        game = self.fresh()
        seat = next(s.index for s in game.seat_list if not s.bot_level
                    and (s.user_id is not None or s.guest_key == self.player_guest))
        state = services.state_of(game, viewer=seat)
        legal = state["legal"] or ["a"]  # a finished game: any token (it is refused)
        drops = [t for t in legal if len(t) == 1 and t.islower()]
        token = drops[0] if drops else legal[0]
        if token in state["options"]:
            token += "+" + state["options"][token]["unloads"][0][0]
        return token

    def ply(self) -> int:
        return self.fresh().ply


def _game_scene(name: str, game: Game, **kw: Any) -> Scene:
    scene = Scene(name, game=game, kwargs={"game_id": game.id}, **kw)
    if game.bot_seed is not None:
        scene.secrets.append(str(game.bot_seed))
    return scene


def _member(people: People, name: str) -> Actor:
    return Actor.member(people.users[name])


def _bot_game(actor: Actor) -> Game:
    return services.create_bot_game(actor=actor, level="easy", options={"size": 5},
                                    seat="blue")


def _online(people: People) -> Game:
    return services.create_game(game_type="cargo-connect", options={"size": 5},
                                seats=[_member(people, "alice"), _member(people, "bob")])


def _new_daily(people: People) -> Game:
    """A new ranked Daily Challenge game of alice's today (a scene of its own: each one at
    a difficulty she has not played yet; a test makes at most three)."""
    made = DailyGame.objects.filter(user=people.users["alice"]).count()
    return daily.start(_member(people, "alice"), daily.DIFFICULTIES[made % 3])


def _yesterdays_daily(people: People) -> Game:
    """alice's ranked Daily Challenge game of yesterday (or earlier, for a second one),
    resigned at the end of its day (as the first look at it after midnight Pacific does)."""
    made = DailyGame.objects.filter(user=people.users["alice"]).count()
    yesterday = clock.today() - dt.timedelta(days=1 + made)
    game = daily.start(_member(people, "alice"), "medium")
    DailyGame.objects.filter(game_id=game.id).update(day=yesterday)
    Game.objects.filter(id=game.id).update(
        created_at=dt.datetime.combine(yesterday, dt.time(12), tzinfo=clock.PACIFIC))
    assert daily.refresh(services.get_game(game.id))  # the end-of-day resign
    return services.get_game(game.id)


def build(name: str, people: People) -> Scene:
    alice = _member(people, "alice")
    if name == "online":
        return _game_scene(name, _online(people))
    if name == "online-over":
        game = _online(people)
        services.resign(game.id, actor=_member(people, "bob"))
        return _game_scene(name, game)
    if name == "bot":
        return _game_scene(name, _bot_game(alice))
    if name == "bot-over":
        game = _bot_game(alice)
        services.resign(game.id, actor=alice)
        return _game_scene(name, game)
    if name == "guest-bot":
        game = _bot_game(Actor.guest(people.seated_guest))
        scene = _game_scene(name, game, player_guest=people.seated_guest)
        scene.secrets.append(people.seated_guest)
        return scene
    if name == "daily":
        return _game_scene(name, _new_daily(people))
    if name == "daily-over":
        game = _new_daily(people)
        services.resign(game.id, actor=alice)
        return _game_scene(name, game)
    if name == "daily-past":
        return _game_scene(name, _yesterdays_daily(people))
    if name == "challenge":
        challenge = services.create_challenge(people.users["alice"], options={"size": 5},
                                              public=False)
        return Scene(name, challenge=challenge, kwargs={"challenge_id": challenge.id})
    if name == "invited":
        challenge = services.create_challenge(people.users["alice"], options={"size": 5},
                                              invited=people.users["bob"])
        return Scene(name, challenge=challenge, kwargs={"challenge_id": challenge.id})
    if name == "table":
        table = services.create_challenge(people.users["alice"], game_type="pile",
                                          options={"counters": 7}, time_control="")
        services.join_table(_member(people, "bob"), table.id)
        return Scene(name, challenge=table, kwargs={"challenge_id": table.id})
    if name == "site":
        return _site_scene(people)
    if name == "tournament":
        from tournaments import services as tournaments

        tournament = tournaments.create_tournament(
            name="Matrix Swiss", game_type="cargo-connect", rounds=3,
            starts_at=timezone.now() + dt.timedelta(hours=1), options={"size": 5})
        tournaments.join(tournament, people.users["alice"])
        return Scene(name, kwargs={"tournament_id": tournament.id})
    if name == "arena":
        from tournaments import arenas
        from tournaments import services as tournaments

        tournament = tournaments.create_tournament(
            name="Matrix Arena", game_type="cargo-connect", rounds=0, system="arena",
            duration=60, time_control="5+3", starts_at=timezone.now() - dt.timedelta(minutes=1),
            options={"size": 5})
        for who in ("alice", "bob"):
            tournaments.join(tournament, people.users[who])
        arenas.pair(tournament.id)
        game_id = tournament.pairings.get().game_id
        return Scene(name, kwargs={"tournament_id": tournament.id, "game_id": game_id})
    raise KeyError(name)


def _site_scene(people: People) -> Scene:
    """The pages that belong to no game: a published Weekly Puzzles week whose Monday is
    today (with one puzzle, proved), the week before it, and alice's profile."""
    from puzzles import schedule, validation
    from puzzles.records import parse

    monday = schedule.monday_of(schedule.today())
    week = Week.objects.create(monday=monday, status=Week.Status.PUBLISHED)
    Week.objects.create(monday=monday - dt.timedelta(days=7), status=Week.Status.PUBLISHED)
    parts = parse(PUZZLE_RECORD)
    puzzle = Puzzle.objects.create(start=parts.start, goal=parts.goal, turns=parts.turns,
                                   week=week, day=0)
    validation.validate(puzzle, background=False)
    return Scene("site", kwargs={
        "username": "alice", "day": monday, "monday": monday - dt.timedelta(days=7),
        "past_day": clock.today() - dt.timedelta(days=1), "game_id": "0000000000"})


def _snapshot_querysets() -> list[Any]:
    """What `snapshot` reads: a queryset of rows, or a model whose rows are counted."""
    return [
        Game.objects.order_by("id").values_list(
            "id", "status", "ply", "termination", "rematch_offered_by", "rematch_id"),
        Seat.objects.order_by("game_id", "index").values_list(
            "game_id", "index", "resigned", "outcome"),
        Turn,
        Challenge.objects.order_by("id").values_list("id", "status", "game_id"),
        TableSeat.objects.order_by("challenge_id", "index").values_list(
            "challenge_id", "index", "user_id", "bot_level"),
        GameReview.objects.order_by("game_id").values_list("game_id", "status"),
        DailyGame,
        Progress.objects.order_by("pk").values_list("pk", "attempts", "solved_at"),
        Puzzle.objects.order_by("pk").values_list("pk", "week_id", "day", "note"),
        Week.objects.order_by("pk").values_list("pk", "status", "note"),
        get_user_model().objects.order_by("pk").values_list("pk", "is_active"),
        Player.objects.filter(bot_since__isnull=False).order_by("user_id").values_list(
            "user_id", flat=True),  # the BOT accounts (api.bots.upgrade)
        ChatMessage.objects.order_by("pk").values_list("pk", "hidden"),
        Silence.objects.order_by("pk").values_list("pk", "member_id", "until", "reason"),
        Mute, Report,
        PushSubscription.objects.order_by("pk").values_list("endpoint", "user_id"),
        Tournament.objects.order_by("pk").values_list("pk", "status", "starts_at",
                                                      "created_by_id"),
        Schedule.objects.order_by("pk").values_list("pk", "name", "rounds", "next_at",
                                                    "active"),
        Entry.objects.order_by("pk").values_list("pk", "tournament_id", "user_id",
                                                 "withdrew_round", "paused"),
        Pairing.objects.order_by("pk").values_list("pk", "game_id", "blue_berserk",
                                                   "orange_berserk"),
    ]


@functools.cache
def _snapshot_statements() -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """`snapshot`'s queries as SQL, compiled once per process: a cell of the matrices takes
    two snapshots for each of seven roles, and compiling the 17 querysets each time was
    most of a cell's time on a 2-core machine (issue #43). The same SQL Django makes."""
    statements = []
    for item in _snapshot_querysets():
        if isinstance(item, type):
            table = connection.ops.quote_name(item._meta.db_table)
            statements.append((f"SELECT COUNT(*) FROM {table}", ()))
        else:
            sql, params = item.query.sql_with_params()
            statements.append((sql, tuple(params)))
    return tuple(statements)


def snapshot() -> tuple:
    """What a request may change, without timestamps: a refused request leaves it equal."""
    with connection.cursor() as cursor:
        rows = []
        for sql, params in _snapshot_statements():
            cursor.execute(sql, params)
            rows.append(tuple(cursor.fetchall()))
    return tuple(rows)
