"""A turn sent just before its socket closed is applied or refused, never dropped: the
answers the consumer can no longer send are dropped, not raised, so it goes on to handle
every frame the client sent before it went."""

import asyncio
import json

import pytest
from websockets.asyncio.client import connect as ws_connect

from games.models import Turn
from tests.games.support import scripted_tokens

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_turn_sent_right_before_close_is_applied(served, game, session_cookie,
                                                         settings, log_records):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    token = scripted_tokens(5)[0]
    for attempt in range(5):
        ws = await ws_connect(f"ws://127.0.0.1:{served.port}/ws/game/{game.id}/",
                              origin=f"http://127.0.0.1:{served.port}",
                              additional_headers={"Cookie": session_cookie("alice").decode()})
        assert json.loads(await ws.recv())["type"] == "state"
        # A catch-up whose answer meets the closed socket, then the turn, then goodbye.
        await ws.send(json.dumps({"type": "sync", "after": 0}))
        await ws.send(json.dumps({"type": "ping"}))
        await ws.send(json.dumps({"type": "turn", "ply": 0, "token": token}))
        ws.transport.abort() if attempt % 2 else await ws.close()
    deadline = asyncio.get_running_loop().time() + 5
    while asyncio.get_running_loop().time() < deadline:
        turns = await asyncio.to_thread(lambda: list(Turn.objects.filter(game_id=game.id)))
        if turns:
            break
        await asyncio.sleep(0.05)
    assert [(t.ply, t.token) for t in turns] == [(0, token)]
    await asyncio.sleep(0.3)
    assert [r.getMessage() for r in log_records.tracebacks()] == []
