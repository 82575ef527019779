"""Malformed frames get an error frame and change nothing; floods are throttled."""

import json

import pytest
from channels.db import database_sync_to_async

from games.models import Game, Turn
from games.sockets import runtime
from tests.games.support import drain

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

BAD = [
    "not json",
    "[1, 2]",
    '"turn"',
    "{}",
    '{"type": 5}',
    '{"type": "dance"}',
    '{"type": "turn", "ply": "0", "token": "a"}',
    '{"type": "turn", "ply": true, "token": "a"}',
    '{"type": "turn", "ply": -1, "token": "a"}',
    '{"type": "turn", "ply": 0}',
    '{"type": "turn", "ply": 0, "token": ""}',
    '{"type": "turn", "ply": 0, "token": ["a"]}',
    json.dumps({"type": "turn", "ply": 0, "token": "a" * 40}),
    '{"type": "sync"}',
    '{"type": "resign", "ply": "x"}',
    json.dumps({"type": "ping", "padding": "x" * 5000}),  # more than 4 KiB
]


async def test_it_answers_each_malformed_frame_with_bad_frame(game, connect):
    alice = await connect(game.id, "alice")
    for text in BAD:
        await alice.send_to(text_data=text)
        frame = await alice.receive_json_from(timeout=5)
        assert (frame["type"], frame["code"]) == ("error", "bad_frame"), text
    await alice.send_to(bytes_data=b"\x00\x01")
    assert (await alice.receive_json_from(timeout=5))["code"] == "bad_frame"
    await alice.send_json_to({"type": "ping"})
    assert await alice.receive_json_from(timeout=5) == {"type": "pong"}  # still open
    row = await database_sync_to_async(Game.objects.get)(id=game.id)
    assert row.ply == 0 and row.status == "active"
    assert await database_sync_to_async(Turn.objects.count)() == 0
    await alice.disconnect()


async def test_it_throttles_more_than_20_frames_a_second(game, connect):
    alice = await connect(game.id, "alice")
    for _ in range(30):
        await alice.send_json_to({"type": "ping"})
    frames = await drain(alice)
    assert frames.count({"type": "pong"}) == 20
    assert [f["code"] for f in frames if f["type"] == "error"] == ["throttled"]
    await alice.disconnect()


async def test_it_closes_a_connection_that_keeps_flooding(game, connect, monkeypatch):
    monkeypatch.setattr(runtime, "FLOOD_STRIKES", 0)  # close on the first flooded second
    alice = await connect(game.id, "alice")
    for _ in range(25):
        await alice.send_json_to({"type": "ping"})
    outputs = []
    while True:
        message = await alice.receive_output(timeout=5)
        outputs.append(message)
        if message["type"] == "websocket.close":
            break
    assert outputs[-1]["code"] == runtime.CLOSE_FLOODING


async def test_every_decision_refused_by_the_budget_gets_an_answer(game, connect, monkeypatch):
    """Issue #42: only a window's first refused frame got `throttled`, so a decision sent
    later in a flooded window had no answer at all and its page waited. Every refused
    decision is answered; other frames after the first (pings, syncs) stay unanswered."""
    from games.sockets import limits

    monkeypatch.setattr(limits, "clock", lambda: 1000.0)  # all in one second
    alice = await connect(game.id, "alice")
    for _ in range(20):  # the socket's whole second
        await alice.send_json_to({"type": "ping"})
    await alice.send_json_to({"type": "ping"})  # the first refused: one `throttled`
    await alice.send_json_to({"type": "ping"})  # refused, unanswered
    await alice.send_json_to({"type": "turn", "ply": 0, "token": "c"})
    await alice.send_json_to({"type": "sync", "after": 0})  # refused, unanswered
    await alice.send_json_to({"type": "resign"})
    frames = await drain(alice)
    assert frames.count({"type": "pong"}) == 20
    assert [f["code"] for f in frames if f["type"] == "error"] == ["throttled"] * 3
    row = await database_sync_to_async(Game.objects.get)(id=game.id)
    assert row.ply == 0 and row.status == "active"  # refused: nothing changed
    await alice.disconnect()
