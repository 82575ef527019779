"""Guests: a visitor who is not signed in plays CargoBot from their browser session.

A guest's game stores the session key (`Game.guest_key`); `Guest(session_key)` stands for
that visitor wherever a user is expected (`Game.side_of`, `services.apply_turn`), so the
same services serve members and guests. Views get it from `player_of(request)`; WebSockets
from `GuestMiddleware`, which sits inside Channels' `AuthMiddlewareStack` (the session is
loaded and checked by then: an unknown session cookie has no key).
"""

from __future__ import annotations

from channels.middleware import BaseMiddleware
from django.contrib.auth.models import AnonymousUser


class Guest(AnonymousUser):
    """A visitor who is not signed in, known by their browser session's key."""

    def __init__(self, guest_key: str):
        self.guest_key = guest_key

    def __eq__(self, other):
        return isinstance(other, Guest) and other.guest_key == self.guest_key

    def __hash__(self):
        return hash(self.guest_key)

    def __str__(self):
        return "Guest"


def player_of(request):
    """The signed-in user, else the guest of this browser session (if it has one), else
    the anonymous user."""
    if request.user.is_authenticated:
        return request.user
    key = request.session.session_key
    return Guest(key) if key else request.user


def ensure_session(request) -> str:
    """The browser session's key, saving a new session first if there is none."""
    if request.session.session_key is None:
        request.session.save()
    return request.session.session_key


class GuestMiddleware(BaseMiddleware):
    """Channels: an anonymous scope user with a session becomes that session's `Guest`."""

    async def __call__(self, scope, receive, send):
        user = scope.get("user")
        session = scope.get("session")
        if (user is not None and not user.is_authenticated and session is not None
                and session.session_key):
            scope = dict(scope, user=Guest(session.session_key))
        return await super().__call__(scope, receive, send)
