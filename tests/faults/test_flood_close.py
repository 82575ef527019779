"""A flooded socket is closed with 4429 once, without a traceback (issue #28, point 6):
frames already queued behind the close made the consumer close again, and uvicorn raised
"Unexpected ASGI message 'websocket.close', after sending 'websocket.close'" (an ERROR
traceback any client could add every few seconds)."""

import asyncio
import json

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_flood_is_closed_once_and_logs_no_traceback(served, game, session_cookie,
                                                            log_records, settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    ws = await ws_connect(f"ws://127.0.0.1:{served.port}/ws/game/{game.id}/",
                          origin=f"http://127.0.0.1:{served.port}",
                          additional_headers={"Cookie": session_cookie("alice").decode()})
    assert json.loads(await ws.recv())["type"] == "state"
    ping = json.dumps({"type": "ping"})

    async def drain():
        while True:
            await ws.recv()

    reader = asyncio.ensure_future(drain())
    try:
        for _ in range(400):  # about 8 s of 100 frames a second, in bursts
            for _ in range(20):
                await ws.send(ping)
            await asyncio.sleep(0.2)
    except ConnectionClosed:
        pass
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(reader, 10)
    assert ws.close_code == 4429
    await asyncio.sleep(0.5)
    assert [r.getMessage() for r in log_records.tracebacks()] == []
    assert not [r for r in log_records.records if "Unexpected ASGI message" in r.getMessage()]
