"""Who is acting: a member, a guest (a visitor known by their browser session) or a bot at a
level, and the one function that says which seat an actor holds in a game.

Views get the actor from `actor_of(request)`; sockets from the scope, where `GuestMiddleware`
(inside Channels' `AuthMiddlewareStack`, so the session is loaded and checked by then) turns
an anonymous user with a session into that session's guest; Celery's bot tasks act as
`Actor.bot(level)`. A BOT account (games.titles) acts for no one on the site's pages and
sockets: it plays through the API only (whose endpoints make `Actor.member` themselves), so
its browser watches its games as a spectator (`actor_of`; the game socket asks
`plays_through_api` when it loads, off the event loop).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from channels.middleware import BaseMiddleware
from django.conf import settings
from django.contrib.auth.models import AnonymousUser

from games import titles
from games.turns.store import live

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser
    from django.http import HttpRequest

    from games.models import Game, Seat


@dataclass(frozen=True)
class Actor:
    kind: Literal["member", "guest", "bot"]
    user_id: int | None = None
    guest_key: str | None = None
    bot_level: str | None = None
    name: str = ""
    # A bot acts for one seat (several bot seats of one level may act at once); None: any
    # seat it holds (games.botplay.bots, the one bot seat to move).
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
        acting = live(game).acting()
        held = [seat for seat in held if seat in acting] or held
    return held[0] if held else None


def seat_left_by(game: Game, actor: Actor | None) -> Seat | None:
    """The seat `actor` held and left in `game` (a bot plays it on, or their leaving
    ended it: `Seat.left`), or None. They watch it now: the page tells them why."""
    if actor is None or actor.kind == "bot":
        return None
    for seat in game.seat_list:
        if not seat.left:
            continue
        if (actor.user_id is not None and seat.user_id == actor.user_id) or \
                (actor.guest_key is not None and seat.guest_key == actor.guest_key):
            return seat
    return None


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


def plays_through_api(user_id: int) -> bool:
    """Is this member a BOT account, who plays through the API only? (From the titles'
    display map: an account that has just become one has no game to play yet.)"""
    return titles.title_of(user_id) == titles.BOT


def actor_of(request: HttpRequest) -> Actor | None:
    """The signed-in member (not a BOT account: the API plays for it), else the guest of
    this browser session (if it has one)."""
    user: AbstractBaseUser | AnonymousUser = request.user
    if user.is_authenticated:
        return None if plays_through_api(user.pk) else Actor.member(user)
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
    """A socket's session as it opened: the key, and a member's id and password hash. Each
    turn checks that it still holds: with the fast path, as conditions of the turn's write
    (games.fast.guard: the session still stored and unexpired, a member still active with
    the same password); a write they refuse takes the locked path, which asks `holds()`.
    Otherwise (the fast path off, a session engine that is not the database) `holds()` is
    asked before each write."""

    def __init__(self, scope: dict[str, Any]) -> None:
        self.scope = scope
        session = scope.get("session")
        self.session_key: str | None = getattr(session, "session_key", None)
        user = scope.get("user")
        member = user is not None and user.is_authenticated
        self.user_id: int | None = user.pk if user is not None and member else None
        self.password: str | None = user.password if user is not None and member else None

    def holds(self) -> bool:
        return session_signed_in(self.scope)


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
