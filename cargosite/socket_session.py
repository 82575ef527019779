"""The session and the user of a WebSocket handshake: Channels' `AuthMiddlewareStack`,
with the session middleware's send left as the server's own.

Channels' `SessionMiddleware` wraps `send` for the whole life of a connection so that it
can save a modified session and set its cookie on `http.response.start`. A WebSocket never
sends that message, yet the wrapper looked at the session (through its `LazyObject`) on
every frame the socket sent: about 4 % of the event loop's time under load
(docs/live-play.md). Here the session is resolved exactly as Channels does it, and the
inner application gets the server's `send`. Sockets never write the session (sign-in and
sign-out are HTTP requests), so nothing that was saved before is saved no longer.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper


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
