"""Open streams counted (api/slots.py): at most API_STREAMS_PER_TOKEN a token and
API_STREAMS_PER_MEMBER a member; the next is refused 429 `too_many_streams` with
Retry-After and nothing held; a stream's slots are free again when it closes, whether the
client closes it, the client vanishes (Django's ASGI handler cancels the body), or the
stream ends by itself. Slots live in the site's cache: Redis with REDIS_URL, so every ASGI
process counts the same slots. An app's OAuth token counts under its own key."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.handlers.asgi import ASGIHandler

from api import slots
from api.errors import ApiError
from api.models import AccessToken
from games import services
from games.actors import Actor
from tests.api.oauth_flow import app_token
from tests.api.streams import open_stream
from tests.api.support import token_for
from tests.games.support import new_game

pytestmark = [pytest.mark.django_db(transaction=True)]
EVENTS = "/api/stream/event"


@pytest.fixture
def caps(settings):
    settings.API_STREAMS_PER_TOKEN = 2
    settings.API_STREAMS_PER_MEMBER = 3
    settings.API_STREAM_KEEPALIVE = 0.2


@pytest.fixture
def users(db):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return {name: User.objects.create_user(name, f"{name}@example.com", "a-long-cargo-pass")
            for name in ("alice", "bob")}


def key_of(token: str) -> str:
    from api.tokens import digest_of

    return f"token:{AccessToken.objects.get(digest=digest_of(token)).pk}"


async def count(key: str) -> int:
    return await database_sync_to_async(slots.open_count)(key)


class Served:
    """A request through Django's own ASGI handler, as uvicorn drives it: its answer's
    status and first body chunk, and `gone()`, the client leaving (`http.disconnect`)."""

    def __init__(self, path: str, token: str) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.inbox.put_nowait({"type": "http.request", "body": b"", "more_body": False})
        self.status = 0
        self.body = b""
        self.started = asyncio.Event()
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": "GET", "scheme": "http", "path": path,
                 "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
                 "headers": [(b"host", b"testserver"),
                             (b"authorization", f"Bearer {token}".encode())]}
        self.task = asyncio.ensure_future(ASGIHandler()(scope, self.inbox.get, self.send))

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = dict(message["headers"])
        elif message.get("body") is not None:
            self.body += message["body"]
            self.started.set()

    async def answered(self) -> Served:
        await asyncio.wait_for(self.started.wait(), 10)
        return self

    async def gone(self) -> None:
        await self.inbox.put({"type": "http.disconnect"})
        await asyncio.wait_for(self.task, 10)


async def opened(token: str) -> Served:
    served = await Served(EVENTS, token).answered()
    assert served.status == 200
    return served


@pytest.mark.asyncio
async def test_the_token_after_its_cap_is_refused_429_and_holds_nothing(users, caps):
    token = await database_sync_to_async(token_for)(users["alice"])
    key = await database_sync_to_async(key_of)(token)
    first, second = await opened(token), await opened(token)
    assert await count(key) == 2
    third = await Served(EVENTS, token).answered()
    await asyncio.wait_for(third.task, 10)  # a refusal: answered and done
    assert third.status == 429 and third.headers[b"Retry-After"] == b"1"
    body = json.loads(third.body)
    assert body["code"] == "too_many_streams" and "2 streams open" in body["error"]
    assert await count(key) == 2
    await first.gone()  # the client leaves: Django cancels the body, its slots go
    assert await count(key) == 1
    again = await opened(token)
    for served in (second, again):
        await served.gone()
    assert await count(key) == 0


@pytest.mark.asyncio
async def test_the_member_has_a_cap_over_all_their_tokens(users, caps):
    one, two, other = await database_sync_to_async(lambda: (
        token_for(users["alice"]), token_for(users["alice"]), token_for(users["bob"])))()
    held = [await opened(one), await opened(one), await opened(two)]
    refused = await Served(EVENTS, two).answered()
    await asyncio.wait_for(refused.task, 10)
    assert refused.status == 429
    assert "This account has 3 streams" in json.loads(refused.body)["error"]
    # the refusal gave back the token's slot it had taken
    assert await count(await database_sync_to_async(key_of)(two)) == 1
    bobs = await opened(other)  # another member counts apart
    await held.pop().gone()
    held.append(await opened(two))
    for served in (*held, bobs):
        await served.gone()


@pytest.mark.asyncio
async def test_a_stream_that_ends_by_itself_frees_its_slot(users, caps):
    def made() -> tuple[str, str]:
        game = new_game(users["alice"], users["bob"])
        services.resign(game.id, actor=Actor.member(users["bob"]))
        return game.id, token_for(users["alice"])

    game_id, token = await database_sync_to_async(made)()
    key = await database_sync_to_async(key_of)(token)
    stream = await open_stream(f"/api/stream/game/{game_id}", token)
    assert (await stream.frame())["state"]["status"] == "finished"
    assert await stream.ended()
    assert await count(key) == 0


@pytest.mark.asyncio
async def test_an_app_token_streams_under_its_own_key_and_closes_when_revoked(users, caps):
    from oauth2_provider.models import AccessToken as AppToken

    from api import oauth

    token = await database_sync_to_async(app_token)(users["alice"], "read")
    row = await database_sync_to_async(AppToken.objects.get)()
    served = await opened(token)
    assert await count(f"app:{row.pk}") == 1
    await database_sync_to_async(oauth.revoke_app)(users["alice"], row.application_id)
    await asyncio.wait_for(served.task, 10)  # its next keep-alive found the token revoked
    assert await count(f"app:{row.pk}") == 0


def test_a_slot_is_leased_so_a_dead_process_cannot_hold_it(settings):
    """A process that dies without its `finally` leaves its slots to their lease: three
    keep-alives, at least a minute; a refusal's Retry-After is a keep-alive's span."""
    settings.API_STREAM_KEEPALIVE = 7
    assert slots.lease_seconds() == 60 and slots.retry_after() == 7
    settings.API_STREAM_KEEPALIVE = 30
    assert slots.lease_seconds() == 90 and slots.retry_after() == 30


def test_a_renewal_extends_the_lease_and_takes_a_lapsed_slot_again(settings):
    from django.core.cache import cache

    settings.API_STREAMS_PER_TOKEN, settings.API_STREAMS_PER_MEMBER = 1, 1
    held = slots.take("token:renewal-test", 987654)
    assert not slots.due(held)
    cache.delete(held.keys[0])  # lapsed: its process stalled past the lease
    held.renewed -= slots.lease_seconds()
    assert slots.due(held)
    slots.renew(held)
    assert slots.open_count("token:renewal-test") == 1 and not slots.due(held)
    with pytest.raises(ApiError) as refused:
        slots.take("token:renewal-test", 987654)
    assert refused.value.code == "too_many_streams"
    slots.release(held)
    assert slots.open_count("token:renewal-test") == 0
