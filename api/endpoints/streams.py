"""The live streams as NDJSON (`application/x-ndjson`), lichess's shape: one game's frames
for its viewer (`GET /api/stream/game/{id}`) and an account's events
(`GET /api/stream/event`). Both answer a `StreamingHttpResponse` whose body, under ASGI, is
an async iterator waiting on the channel layer (api.live); an empty line is the keep-alive.
The game's viewer and its state are found before the answer starts, so a refusal (no such
game, hidden) is an ordinary JSON error. Under WSGI a stream sends its opening lines and
closes. Under ASGI a stream holds a slot of its token's and of its member's while it is
open (api.slots: too many at once is 429 `too_many_streams`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, StreamingHttpResponse
from ninja import Router

from games.actors import Actor

from .. import examples, live, slots
from ..auth import Bearer, bearer
from ..errors import Code
from ..operations import endpoint
from ..scopes import Scope
from .games import GAME_ID
from .games import load as check_game_id

router = Router(tags=["Live"])
MEDIA = "application/x-ndjson"


def streamed(request: HttpRequest, body: AsyncIterator[bytes], opening: list[bytes]
             ) -> StreamingHttpResponse:
    """The stream's answer: `body` under ASGI, holding its slots (or the refusal when
    there are none left), the opening lines alone under WSGI."""
    chosen: Any = _opening(opening)
    if isinstance(request, ASGIRequest):
        asker: Bearer = bearer(request)
        chosen = slots.holding(slots.take(asker.key, asker.user.pk), body)
    response = StreamingHttpResponse(chosen, content_type=MEDIA)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy passes each line on as it comes
    return response


def _opening(lines: list[bytes]) -> Iterator[bytes]:
    yield from lines


def documented(doc: dict[str, Any]) -> dict[str, Any]:
    """The stream's 200 answer with its line's schema."""
    doc["openapi_extra"]["responses"][200]["content"][MEDIA]["schema"] = {
        "$ref": "#/components/schemas/StreamLine"}
    return doc


@router.get("/stream/game/{game_id}", operation_id="streamGame", **documented(endpoint(
    Scope.READ, "Stream one game's frames, as its viewer gets them",
    "NDJSON, one live-protocol frame a line (docs/live-protocol.md), exactly as a socket of "
    "the same viewer gets them: the token's member's seat if they hold one, else a "
    "spectator's. The first line is the viewer's state (`{\"type\": \"state\"}`), then each "
    "frame as the site sends it (turns, resignations, endings, presence, the seat's own "
    "pre-turns), and the game's chat as that viewer's socket gets it (`chat` lines of the "
    "rooms the viewer may read now, a muted member's left out); after a quiet spell an "
    "empty line (keep-alive), and a `state` line if a "
    "frame was lost on the way. The stream ends after the frame that ends the game (a "
    "finished game: its whole state, then the end).",
    None, examples.GAME_STREAM, Code.NOT_FOUND, Code.HIDDEN, media=MEDIA)))
def stream_game(request: HttpRequest, game_id: str) -> StreamingHttpResponse:
    asker = bearer(request)
    if not GAME_ID.fullmatch(game_id):
        check_game_id(game_id)  # the refusal that says what a game id is
    watched = live.open_game(game_id, Actor.member(asker.user), asker.key)
    first = live.line({"type": "state", "state": watched.state})
    return streamed(request, live.game_lines(watched), [first])


@router.get("/stream/event", operation_id="streamEvents", **documented(endpoint(
    Scope.READ, "Stream the account's events",
    "NDJSON: first a `gameStart` line for each of the member's games in progress (with "
    "whether it waits on them), then each event as it happens: tables (`seek_changed`, "
    "`seek_accepted` when a table the member sat at started, `seek_removed`), "
    "`gameStart` and `gameFinish` as each of the member's games starts and ends (its "
    "status, termination and the member's outcome), the challenges, and the "
    "site's notifications (`notification`: a correspondence game's turn, a table joined or "
    "started, a rematch offered, a game ended). An empty line is the keep-alive.",
    None, examples.EVENT_STREAM, media=MEDIA)))
def stream_events(request: HttpRequest) -> StreamingHttpResponse:
    asker = bearer(request)
    opening = live.opening_events(asker.user)
    return streamed(request, live.event_lines(asker.user.pk, asker.key, opening),
                    opening)
