"""A client that missed turns (a gap, or a reconnect) asks with `sync` and catches up."""

import pytest
from channels.db import database_sync_to_async

from games import services
from tests.games.support import Actor, drain, receive_type, scripted_tokens

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_reconnecting_player_catches_up_with_sync(game, users, connect):
    tokens = scripted_tokens(5)[:4]
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": tokens[0]})
    await receive_type(bob, "turn")
    await receive_type(alice, "turn")
    await bob.disconnect()  # bob knows ply 1, then loses his connection

    for ply in (1, 2, 3):
        if ply % 2:  # bob's turns, played meanwhile from another tab over plain HTTP
            await database_sync_to_async(services.apply_turn)(
                game.id, actor=Actor.of_user(users["bob"]), ply=ply, token=tokens[ply])
        else:
            await alice.send_json_to({"type": "turn", "ply": ply, "token": tokens[ply]})
        await receive_type(alice, "turn")

    bob = await connect(game.id, "bob")
    assert bob.first["state"]["ply"] == 4  # a reconnect starts from the current state
    await bob.send_json_to({"type": "sync", "after": 1})
    frames = await drain(bob)
    assert [f["type"] for f in frames] == ["turn", "turn", "turn", "state"]
    assert [f["ply"] for f in frames[:3]] == [1, 2, 3]
    assert [f["token"] for f in frames[:3]] == tokens[1:4]
    assert [f["state"]["ply"] for f in frames[:3]] == [2, 3, 4]
    assert frames[3]["state"]["you"] == "orange"
    for comm in (alice, bob):
        await comm.disconnect()


async def test_sync_with_nothing_missed_sends_the_state_only(game, connect):
    alice = await connect(game.id, "alice")
    await alice.send_json_to({"type": "sync", "after": 0})
    frames = await drain(alice)
    assert [f["type"] for f in frames] == ["state"]
    await alice.disconnect()
