"""Redis down (the channel layer failing) after a turn commits: the turn stands, its sender
is acknowledged directly, the socket stays open, the failure is logged once and counted,
the opponent catches up (on `sync`, or pushed on its next `ping`), and sockets can still
connect and join their groups once the layer answers."""

import asyncio
import logging

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers, get_channel_layer
from django.test import Client

from games.frames import broadcast
from games.models import Turn
from tests.games.support import drain, scripted_tokens

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def refuse(*args, **kwargs):
    raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


async def test_a_turn_whose_broadcast_fails_is_acknowledged_and_caught_up(
        game, connect, monkeypatch, caplog):
    tokens = scripted_tokens(5)
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    layer = get_channel_layer()
    working = layer.group_send
    monkeypatch.setattr(layer, "group_send", refuse)
    failed_before = broadcast.failures()
    with caplog.at_level(logging.WARNING):
        await alice.send_json_to({"type": "turn", "ply": 0, "token": tokens[0]})
        ack = await alice.receive_json_from(timeout=5)
        assert (ack["type"], ack["ply"], ack["token"]) == ("turn", 0, tokens[0])
        assert await bob.receive_nothing(timeout=0.3)  # the opponent had no frame
        await bob.send_json_to({"type": "sync", "after": 0})  # ... and catches up
        frames = await drain(bob)
        assert [(f["type"], f.get("ply")) for f in frames] == [("turn", 0), ("state", None)]
        await bob.send_json_to({"type": "turn", "ply": 1, "token": tokens[1]})
        assert (await bob.receive_json_from(timeout=5))["ply"] == 1
    assert broadcast.failures() - failed_before == 2
    warnings = [r for r in caplog.records if r.name == "games.frames.broadcast"]
    assert len(warnings) == 1 and not warnings[0].exc_info
    assert await database_sync_to_async(Turn.objects.filter(game_id=game.id).count)() == 2

    monkeypatch.setattr(layer, "group_send", working)
    await alice.send_json_to({"type": "ping"})  # alice never had ply 1: pushed with the pong
    frames = await drain(alice)
    assert [(f["type"], f.get("ply")) for f in frames] == [("turn", 1), ("state", None),
                                                           ("pong", None)]
    await alice.send_json_to({"type": "turn", "ply": 2, "token": tokens[2]})
    for comm in (alice, bob):  # the layer answers again: the group has it
        assert (await comm.receive_json_from(timeout=5))["ply"] == 2
    await alice.disconnect()
    await bob.disconnect()


async def test_an_http_turn_stands_when_the_broadcast_fails(game, users, monkeypatch):
    layer = get_channel_layer()
    monkeypatch.setattr(layer, "group_send", refuse)

    def post():
        client = Client()
        client.force_login(users["alice"])
        return client.post(f"/g/{game.id}/turn", {"ply": "0", "token": scripted_tokens(5)[0]})

    response = await database_sync_to_async(post)()
    assert response.status_code == 200 and response.json()["ply"] == 0


async def test_a_socket_connects_while_the_layer_is_down_and_joins_when_it_is_back(
        game, connect, monkeypatch):
    layer = get_channel_layer()
    working = {name: getattr(layer, name) for name in ("new_channel", "group_add")}
    for name in working:
        monkeypatch.setattr(layer, name, refuse)
    carol = await connect(game.id, "carol")
    assert carol.connected and carol.first["state"]["ply"] == 0
    await carol.send_json_to({"type": "ping"})
    assert await carol.receive_json_from(timeout=5) == {"type": "pong"}
    for name, method in working.items():
        monkeypatch.setattr(layer, name, method)
    await asyncio.sleep(1.0)  # the socket's retry joins its group
    alice = await connect(game.id, "alice")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": scripted_tokens(5)[0]})
    frame = await carol.receive_json_from(timeout=5)
    assert (frame["type"], frame["ply"]) == ("turn", 0)
    await carol.disconnect()
    await alice.disconnect()


@pytest.fixture
def dead_redis_layer(settings):
    """The Redis pub/sub layer pointed at a port where nothing listens."""
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "cargosite.channel_layer.PipelinedPubSubChannelLayer",
        "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:9", "socket_connect_timeout": 1}],
                   "prefix": "cargo-dead"}}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


async def test_with_redis_unreachable_sockets_open_and_turns_are_acknowledged(
        game, connect, dead_redis_layer, log_records):
    tokens = scripted_tokens(5)
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    assert alice.connected and bob.connected
    await alice.send_json_to({"type": "turn", "ply": 0, "token": tokens[0]})
    assert (await alice.receive_json_from(timeout=5))["ply"] == 0
    await bob.send_json_to({"type": "sync", "after": 0})
    assert (await bob.receive_json_from(timeout=5))["ply"] == 0
    assert (await bob.receive_json_from(timeout=5))["type"] == "state"
    assert [r.getMessage() for r in log_records.tracebacks()] == []
    await alice.disconnect()
    await bob.disconnect()

