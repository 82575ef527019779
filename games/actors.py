"""Who is acting: a member, a guest (a visitor known by their browser session) or a bot at a
level, and the one function that says which seat an actor holds in a game.

Views get the actor from `actor_of(request)`; sockets from the scope, where `GuestMiddleware`
(inside Channels' `AuthMiddlewareStack`, so the session is loaded and checked by then) turns
an anonymous user with a session into that session's guest; Celery's bot tasks act as
`Actor.bot(level)`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from channels.middleware import BaseMiddleware
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Field
from django.utils import timezone

from . import loopdb

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser
    from django.http import HttpRequest

    from .models import Game, Seat


@dataclass(frozen=True)
class Actor:
    kind: Literal["member", "guest", "bot"]
    user_id: int | None = None
    guest_key: str | None = None
    bot_level: str | None = None
    name: str = ""
    # A bot acts for one seat (several bot seats of one level may act at once); None: any
    # seat it holds (games.bots, the one bot seat to move).
    bot_seat: int | None = None

    @classmethod
    def member(cls, user: Any) -> Actor:
        return cls("member", user_id=user.pk, name=user.get_username())

    @classmethod
    def guest(cls, guest_key: str) -> Actor:
        return cls("guest", guest_key=guest_key, name="Guest")

    @classmethod
    def bot(cls, level: str, seat: int | None = None) -> Actor:
        return cls("bot", bot_level=level, bot_seat=seat)

    @classmethod
    def of_user(cls, user: Any) -> Actor | None:
        """A request's or scope's user: a member, a `Guest`, or nobody (None)."""
        if user is None:
            return None
        if user.is_authenticated:
            return cls.member(user)
        key = getattr(user, "guest_key", None)
        return cls.guest(key) if key else None

    def holds(self, seat: Seat) -> bool:
        """Does this actor act for `seat`? A member or guest who left a seat a bot took
        over (`Seat.stand_in`) no longer does; that bot does."""
        if self.kind == "member":
            return seat.user_id is not None and seat.user_id == self.user_id \
                and not seat.stand_in
        if self.kind == "guest":
            return seat.guest_key is not None and seat.guest_key == self.guest_key \
                and not seat.stand_in
        level = seat.playing_level
        return level is not None and level == self.bot_level \
            and self.bot_seat in (None, seat.index)

    def seat_fields(self) -> dict[str, Any]:
        """The Seat columns that record this actor."""
        return {"user_id": self.user_id, "guest_key": self.guest_key,
                "bot_level": self.bot_level}


def seat_of(game: Game, actor: Actor | None) -> int | None:
    """The seat `actor` holds in `game`, or None (a spectator). A member who holds two
    seats (a game against oneself) acts for the seat to move, else the first."""
    if actor is None:
        return None
    held = [seat.index for seat in game.seat_list if actor.holds(seat)]
    if len(held) > 1:
        from .store import live

        acting = live(game).acting()
        held = [seat for seat in held if seat in acting] or held
    return held[0] if held else None


class Guest(AnonymousUser):
    """A visitor who is not signed in, known by their browser session's key (in the socket
    scope, where Channels expects a user)."""

    def __init__(self, guest_key: str) -> None:
        self.guest_key = guest_key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Guest) and other.guest_key == self.guest_key

    def __hash__(self) -> int:
        return hash(self.guest_key)

    def __str__(self) -> str:
        return "Guest"


def actor_of(request: HttpRequest) -> Actor | None:
    """The signed-in member, else the guest of this browser session (if it has one)."""
    user: AbstractBaseUser | AnonymousUser = request.user
    if user.is_authenticated:
        return Actor.member(user)
    key = request.session.session_key
    return Actor.guest(key) if key else None


def session_signed_in(scope: dict[str, Any]) -> bool:
    """Does a socket's scope still act for who it connected as? Read fresh from the session
    store (the scope's session was loaded once, at connect): a member's session must still
    be signed in to that member, with the password hash it was signed in with (a password
    change signs other sessions out) and the member still active; a guest's session must
    still exist. Anyone else acts for no one and so loses nothing."""
    from importlib import import_module
    from types import SimpleNamespace

    from django.contrib.auth import get_user

    user = scope.get("user")
    session = scope.get("session")
    key = getattr(session, "session_key", None)
    if user is None or key is None:
        return not (user is not None and (user.is_authenticated or
                                          getattr(user, "guest_key", None)))
    store = import_module(settings.SESSION_ENGINE).SessionStore(key)
    if not user.is_authenticated:
        return not getattr(user, "guest_key", None) or store.exists(key)
    current = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return bool(current.is_authenticated and current.pk == user.pk)


class SessionGuard:
    """A socket's session, checked inside each turn's write instead of by a read before
    it: the session it opened with must still be stored and unexpired (sign-out deletes
    it), and a member must still be active with the password the socket opened with (a
    password change signs other sessions out). That is what `session_signed_in` reads,
    as conditions of the UPDATE (games.store.write_turn); a write they refuse takes the
    locked path, which asks `holds()`. With a session engine that is not the database,
    there are no conditions and `holds()` is asked before each write instead."""

    SQL_ENGINES = ("django.contrib.sessions.backends.db",
                   "django.contrib.sessions.backends.cached_db")

    def __init__(self, scope: dict[str, Any]) -> None:
        self.scope = scope
        session = scope.get("session")
        self.session_key: str | None = getattr(session, "session_key", None)
        user = scope.get("user")
        member = user is not None and user.is_authenticated
        self.user_id: int | None = user.pk if user is not None and member else None
        self.password: str | None = user.password if user is not None and member else None

    @property
    def in_sql(self) -> bool:
        return self.session_key is not None and settings.SESSION_ENGINE in self.SQL_ENGINES

    def holds(self) -> bool:
        return session_signed_in(self.scope)

    def sql(self) -> tuple[tuple[str, ...], list[Any]]:
        """WHERE conditions (and their parameters) that hold while the session does."""
        params: list[Any] = [self.session_key, now_for("sessions.Session", "expire_date")]
        if self.user_id is not None:
            params += [self.user_id, True, self.password]
        return _guard_clauses(self.user_id is not None), params


def now_for(model: str, name: str) -> Any:
    """Now, as the column `name` of `model` ("app.Model") takes it. PostgreSQL takes an
    aware datetime as it is, and Django's connection is not looked up for it: on the event
    loop that look-up (a context-local) cost more than the rest of the value."""
    now = timezone.now()
    if loopdb.on_postgresql():
        return now
    return _field(model, name).get_db_prep_save(now, connections[DEFAULT_DB_ALIAS])


@functools.cache
def _field(model: str, name: str) -> Field:
    """A model's field, looked up once (the turn's write asks at every turn)."""
    f = apps.get_model(model)._meta.get_field(name)
    assert isinstance(f, Field)
    return f


@functools.cache
def _guard_clauses(member: bool) -> tuple[str, ...]:
    """The text of `SessionGuard.sql`'s conditions (a member's adds their user row)."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session
    from django.db import connection

    quote = connection.ops.quote_name
    clauses = [f"EXISTS (SELECT 1 FROM {quote(Session._meta.db_table)} WHERE "
               f"session_key = %s AND expire_date > %s)"]
    if member:
        clauses.append(f"EXISTS (SELECT 1 FROM {quote(get_user_model()._meta.db_table)} "
                       f"WHERE id = %s AND is_active = %s AND password = %s)")
    return tuple(clauses)


def ensure_session(request: HttpRequest) -> str:
    """The browser session's key, saving a new session first if there is none."""
    if request.session.session_key is None:
        request.session.save()
    key = request.session.session_key
    assert key is not None
    return key


class GuestMiddleware(BaseMiddleware):
    """Channels: an anonymous scope user with a session becomes that session's `Guest`."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        user = scope.get("user")
        session = scope.get("session")
        if (user is not None and not user.is_authenticated and session is not None
                and session.session_key):
            scope = dict(scope, user=Guest(session.session_key))
        return await super().__call__(scope, receive, send)
