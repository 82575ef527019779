"""A member's games as NDJSON (`application/x-ndjson`, one JSON object a line), newest
first, streamed: the rows come from a server-side cursor (`QuerySet.iterator(chunk_size)`,
with the seats prefetched chunk by chunk), each line is written as its row arrives, and
the response is a generator, never a list. Under ASGI the lines are pulled off the event
loop a batch at a time (`asgi_lines`, on the request's own database thread), because
Django would otherwise read a synchronous iterator whole before sending a byte.

Only finished games are exported (everything in them public, as their records); a game its
mode hides from the asker now (a Daily Challenge game of today) is left out. Filters, as
lichess names them: `game` (a game type), `since` / `until` (milliseconds since the epoch,
on when the game was created), `rated`, `max`."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Iterator
from typing import Any

import orjson
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.http import HttpRequest, StreamingHttpResponse
from ninja import Query, Router, Schema
from pydantic import Field

from games import access
from games.actors import Actor
from games.kinds import KindError, get_kind
from games.models import Game, Seat

from .. import examples
from ..auth import bearer
from ..errors import ApiError, Code
from ..operations import endpoint
from ..scopes import Scope
from .shapes import game_facts, member

router = Router(tags=["Games"])
MEDIA = "application/x-ndjson"
BATCH = 50  # lines pulled off the event loop at a time under ASGI
MAX_SPAN_MS = 10 ** 14  # the filters' bounds: year 5138; beyond it is a mistake


class Filters(Schema):
    game: str | None = Field(None, description="Only this game type, e.g. cargo-express.")
    since: int | None = Field(None, ge=0, le=MAX_SPAN_MS,
                              description="Games created at or after this moment (ms since "
                                          "the epoch).")
    until: int | None = Field(None, ge=0, le=MAX_SPAN_MS,
                              description="Games created before this moment (ms).")
    rated: bool | None = Field(None, description="Only rated (true) or casual (false).")
    max: int | None = Field(None, ge=1, le=1_000_000,
                            description="At most this many games.")


def _moment(ms: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


def games_of(user: Any, filters: Filters) -> QuerySet[Game]:
    """The member's finished games matching the filters, newest first (not yet run)."""
    if filters.game is not None:
        try:
            get_kind(filters.game)
        except KindError:
            raise ApiError(Code.BAD_REQUEST, f"No game type {filters.game!r}.") from None
    if filters.since is not None and filters.until is not None \
            and filters.until <= filters.since:
        raise ApiError(Code.BAD_REQUEST, "`until` must come after `since`.")
    seated = Seat.objects.filter(game=OuterRef("pk"), user=user)
    games = Game.objects.filter(Exists(seated), status=Game.Status.FINISHED)
    if filters.game is not None:
        games = games.filter(game_type=filters.game)
    if filters.since is not None:
        games = games.filter(created_at__gte=_moment(filters.since))
    if filters.until is not None:
        games = games.filter(created_at__lt=_moment(filters.until))
    if filters.rated is not None:
        games = games.filter(rated=filters.rated)
    games = games.defer("position", "start", "clock", "options").order_by("-created_at", "id")
    # `Game.seat_list` reads the prefetched seats: no query per game.
    return games.prefetch_related(Prefetch("seats",
                                           queryset=Seat.objects.select_related("user")))


def lines(request: HttpRequest, games: QuerySet[Game], actor: Actor, limit: int | None
          ) -> Iterator[bytes]:
    """Each game as one NDJSON line, read from a server-side cursor as they are written."""
    sent = 0
    checks = access.has_open_checks(Game.Mode.DAILY)
    for game in games.iterator(chunk_size=settings.API_EXPORT_CHUNK):
        if limit is not None and sent >= limit:
            return
        if checks and game.mode == Game.Mode.DAILY and access.hidden_reason(game, actor):
            continue
        line = {**game_facts(request, game), "tokens": list(game.tokens)}
        yield orjson.dumps(line) + b"\n"
        sent += 1


async def asgi_lines(source: Iterator[bytes]) -> AsyncIterator[bytes]:
    """`source`'s lines for an ASGI server: a batch at a time, read on the request's
    database thread (thread-sensitive), so the cursor stays on its connection."""
    def batch() -> list[bytes]:
        out = []
        for line in source:
            out.append(line)
            if len(out) >= BATCH:
                break
        return out

    while True:
        chunk = await sync_to_async(batch, thread_sensitive=True)()
        if not chunk:
            return
        for line in chunk:
            yield line


DOC = endpoint(
    Scope.READ, "A member's games, as NDJSON",
    "Every finished game of the member, newest first, one JSON object a line "
    "(`application/x-ndjson`), streamed as it is read: start reading at once. Filters: "
    "`game`, `since`, `until` (ms since the epoch), `rated`, `max`. A Daily Challenge "
    "game of today is left out until its day ends.",
    None, examples.EXPORT_LINE, Code.NOT_FOUND, media=MEDIA)
DOC["openapi_extra"]["responses"][200]["content"][MEDIA]["schema"] = {
    "$ref": "#/components/schemas/GameLine"}


@router.get("/games/user/{username}", operation_id="exportGames", **DOC)
def export(request: HttpRequest, username: str, filters: Query[Filters]
           ) -> StreamingHttpResponse:
    user = member(username)
    games = games_of(user, filters)
    source = lines(request, games, Actor.member(bearer(request).user), filters.max)
    body: Any = asgi_lines(source) if isinstance(request, ASGIRequest) else source
    response = StreamingHttpResponse(body, content_type=MEDIA)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy passes each line on as it comes
    return response
