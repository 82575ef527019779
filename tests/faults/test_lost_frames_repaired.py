"""Every frame of a game is versioned (the row's revision, games.frames.audiences): a `resigned`
frame the channel layer lost is repaired on the next `ping`, as a lost turn is."""

import pytest
from channels.layers import get_channel_layer

from tests.games.support import drain, scripted_tokens

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def refuse(*args, **kwargs):
    raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


async def test_a_lost_resignation_reaches_the_other_player_on_their_next_ping(
        game, connect, monkeypatch):
    tokens = scripted_tokens(5)
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": tokens[0]})
    for comm in (alice, bob):
        assert (await comm.receive_json_from(timeout=5))["ply"] == 0
    layer = get_channel_layer()
    working = layer.group_send
    monkeypatch.setattr(layer, "group_send", refuse)
    await bob.send_json_to({"type": "resign", "ply": 1})
    assert (await bob.receive_json_from(timeout=5))["type"] == "resigned"  # told directly
    assert await alice.receive_nothing(timeout=0.3)  # alice had no frame

    monkeypatch.setattr(layer, "group_send", working)
    await alice.send_json_to({"type": "ping"})  # same ply, a newer row: the state is pushed
    frames = await drain(alice)
    assert [f["type"] for f in frames] == ["state", "pong"]
    assert frames[0]["state"]["over"] and frames[0]["state"]["resigned"] == "orange"
    await alice.send_json_to({"type": "ping"})  # nothing more to repair
    assert [f["type"] for f in await drain(alice)] == ["pong"]
    await alice.disconnect()
    await bob.disconnect()
