"""The session and the user of a WebSocket handshake: Channels' `AuthMiddlewareStack`,
with the session middleware's send left as the server's own.

Channels' `SessionMiddleware` wraps `send` for the whole life of a connection so that it
can save a modified session and set its cookie on `http.response.start`. A WebSocket never
sends that message, yet the wrapper looked at the session (through its `LazyObject`) on
every frame the socket sent: about 4 % of the event loop's time under load
(docs/live-play.md). Here the session is resolved exactly as Channels does it, and the
inner application gets the server's `send`. Sockets never write the session (sign-in and
sign-out are HTTP requests), so nothing that was saved before is saved no longer.

Fast path (games/fast/, docs/fast-path.md "cargosite/socket_session.py"): relies on
channels 4.3.2's `CookieMiddleware`, `InstanceSessionWrapper(scope, send)`, its
`resolve_session()` and `scope`, and `AuthMiddleware`. Measured: "about 4 % of the event
loop" (py-spy, 2026-12-01 18:45–20:20 UTC); under load not alone (62d2ac3's runs, ASGI
1.79–1.81 → 1.52–1.59 ms a turn with other changes). With `LIVE_FAST_PATH=0`,
`socket_auth_stack` is Channels' own `AuthMiddlewareStack`.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware, AuthMiddlewareStack
from channels.sessions import CookieMiddleware, InstanceSessionWrapper
from django.conf import settings


class SocketSessionMiddleware:
    """`scope["session"]` for a WebSocket, as Channels' `SessionMiddleware` sets it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SocketSessionMiddleware is for WebSocket connections")
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def SocketAuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802 - named like Channels' own
    """Cookies, the session, then `scope["user"]` (Channels' `AuthMiddleware`)."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))


def socket_auth_stack(inner: Any) -> Any:
    """The sockets' session and user: `SocketAuthMiddlewareStack` on the fast path,
    Channels' `AuthMiddlewareStack` with it off (`LIVE_FAST_PATH=0`)."""
    if settings.LIVE_FAST_PATH:
        return SocketAuthMiddlewareStack(inner)
    return AuthMiddlewareStack(inner)
