"""What a request gets when the site cannot answer it (`handler500` in cargosite/urls.py):
a database that does not answer is a 503; anything else is Django's own 500, which renders
the site's `500.html` (common/errors.py).

A request that meets a database that does not answer (PostgreSQL restarting or unreachable:
`games.frames.protocol.DATABASE_DOWN`) is answered 503 with `Retry-After` and a message saying so:
the JSON error of the live protocol (`{"type": "error", "code": "unavailable", ...}`) for a
client that asks for JSON, else a short page that needs neither the database nor a template
context (the usual ones read the session and the user, from the database). Its transaction
did not commit, so nothing changed; the same processes serve again once the database is
back (connections are health-checked before reuse: CONN_HEALTH_CHECKS). Any other failure
is Django's plain 500.

WebSockets: the handshake reads the session and the user from the database
(cargosite/socket_session.py) before a consumer runs, so `SocketDatabaseGuard` closes a socket that
meets a database that does not answer there with 1013 (try again later) and one log line;
the consumers do the same for their own calls (games/sockets/runtime.py).
"""

from __future__ import annotations

import contextlib
import logging
import sys
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views import defaults

from games.frames.protocol import DATABASE_DOWN, UNAVAILABLE_MESSAGE, Code, database_down_line

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
CLOSE_TRY_AGAIN = 1013


def database_down(error: BaseException | None) -> bool:
    return isinstance(error, DATABASE_DOWN)


def unavailable(request: HttpRequest) -> HttpResponse:
    response: HttpResponse
    if "application/json" in request.headers.get("Accept", ""):
        response = JsonResponse({"type": "error", "code": Code.UNAVAILABLE.code,
                                 "message": UNAVAILABLE_MESSAGE, "ply": None},
                                status=Code.UNAVAILABLE.status)
    else:
        response = HttpResponse(render_to_string("503.html", {"message": UNAVAILABLE_MESSAGE}),
                                status=Code.UNAVAILABLE.status)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    if database_down(sys.exc_info()[1]):
        return unavailable(request)
    return defaults.server_error(request)


class SocketDatabaseGuard:
    """ASGI middleware for WebSockets: a database that does not answer during the handshake
    closes the socket with 1013 instead of failing the connection with a traceback."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        accepted = False

        async def noting_send(message: dict[str, Any]) -> None:
            nonlocal accepted
            if message.get("type") == "websocket.accept":
                accepted = True
            await send(message)

        try:
            await self.inner(scope, receive, noting_send)
        except DATABASE_DOWN as error:
            log.warning("the database is not answering (%s); the socket %s is closed with %d",
                        database_down_line(error), scope.get("path", ""), CLOSE_TRY_AGAIN)
            with contextlib.suppress(Exception):  # the client may have gone already
                # Accepted first: a close before the accept reaches a browser as HTTP 403,
                # without the code that tells the page to come back later.
                if not accepted:
                    await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})
