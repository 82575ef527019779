"""A frame the consumer cannot parse is one `bad_frame` and no traceback: nested too deep
for the JSON parser, not UTF-8 (closed by the server with 1007, logged as one line), or
bigger than the protocol's limit (refused by the server before it is read). Frames are
not compressed, whatever the client offers (cargosite/serve.py)."""

import asyncio
import json
import logging

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from games.models import Game

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("text", ["[" * 4000, '{"a":' * 800 + "1" + "}" * 800,
                                  '{"type": "turn", "x": ' + "[" * 3000 + "]" * 3000 + "}"])
async def test_deeply_nested_json_is_a_bad_frame(game, connect, log_records, text):
    assert len(text.encode()) <= 8000
    alice = await connect(game.id, "alice")
    await alice.send_to(text_data=text[:4096])
    frame = await alice.receive_json_from(timeout=5)
    assert (frame["type"], frame["code"]) == ("error", "bad_frame")
    await alice.send_json_to({"type": "ping"})
    assert await alice.receive_json_from(timeout=5) == {"type": "pong"}
    assert log_records.tracebacks() == []
    await alice.disconnect()


async def _open(served, cookie: str, game_id: str):
    return await ws_connect(f"ws://127.0.0.1:{served.port}/ws/game/{game_id}/",
                            origin=f"http://127.0.0.1:{served.port}",
                            additional_headers={"Cookie": cookie})


def _cookie(session_cookie, name):
    return session_cookie(name).decode()


async def test_invalid_utf8_is_closed_without_a_traceback(served, game, session_cookie,
                                                          log_records, settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    ws = await _open(served, _cookie(session_cookie, "alice"), game.id)
    assert json.loads(await ws.recv())["type"] == "state"
    # A text frame whose payload is not UTF-8: written raw, past the client's own encoder.
    from websockets.frames import Frame, Opcode

    ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe{}"))
    ws.send_data()
    with pytest.raises(ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    await asyncio.sleep(0.2)
    assert log_records.tracebacks() == []
    assert any("Invalid UTF-8" in r.getMessage() for r in log_records.records)


async def test_a_frame_over_the_limit_is_refused_before_it_is_read(served, game,
                                                                    session_cookie, settings):
    from cargosite import serve
    from games.sockets.limits import MAX_FRAME_BYTES

    assert serve.uvicorn_options()["ws_max_size"] == MAX_FRAME_BYTES
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    ws = await _open(served, _cookie(session_cookie, "alice"), game.id)
    assert json.loads(await ws.recv())["type"] == "state"
    await ws.send(json.dumps({"type": "ping", "pad": "x" * (64 * 1024)}))
    with pytest.raises(ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    row = await asyncio.to_thread(Game.objects.get, id=game.id)
    assert row.ply == 0


@pytest.mark.fast_path  # no per-message deflate is the fast path's (cargosite/serve.py)
async def test_frames_go_uncompressed_though_the_client_offers_deflate(served, game,
                                                                       session_cookie, settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    ws = await _open(served, _cookie(session_cookie, "alice"), game.id)
    offered = ws.request.headers.get("Sec-WebSocket-Extensions", "")
    assert "permessage-deflate" in offered  # the client asked for it
    assert ws.response.headers.get("Sec-WebSocket-Extensions") is None
    assert ws.protocol.extensions == []
    assert json.loads(await ws.recv())["type"] == "state"
    await ws.close()


async def test_invalid_utf8_frames_are_counted_and_logged_once_a_minute(
        served, game, session_cookie, log_records, settings):
    """A client can send bad frames as fast as it can reconnect: the log keeps one line a
    minute, /metrics counts every frame (issue #42, point 6)."""
    from prometheus_client import REGISTRY
    from websockets.frames import Frame, Opcode

    from cargosite.logs import OneLine

    for found in logging.getLogger("uvicorn.error").filters:
        if isinstance(found, OneLine):
            found.last = float("-inf")  # a minute since the last line, whatever ran before
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    counted = REGISTRY.get_sample_value("cargo_invalid_utf8_frames_total") or 0.0
    logged = len(log_records.records)
    cookie = _cookie(session_cookie, "alice")
    for _ in range(5):
        ws = await _open(served, cookie, game.id)
        assert json.loads(await ws.recv())["type"] == "state"
        ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe{}"))
        ws.send_data()
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    await asyncio.sleep(0.2)
    assert REGISTRY.get_sample_value("cargo_invalid_utf8_frames_total") == counted + 5
    lines = {id(r) for r in log_records.records[logged:] if "Invalid UTF-8" in r.getMessage()}
    assert len(lines) == 1  # (a record reaches the fixture's handler once per logger)
    assert log_records.tracebacks() == []
