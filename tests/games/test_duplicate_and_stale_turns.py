"""A resent turn is acknowledged again, not applied twice; a stale ply is refused."""

import pytest
from channels.db import database_sync_to_async

from games.models import Turn
from tests.games.support import Actor, rebuilt, receive_type

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_it_answers_a_resent_turn_with_the_same_frame(game, connect):
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": "c"})
    first = await receive_type(alice, "turn")
    await receive_type(bob, "turn")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": "c"})
    again = await alice.receive_json_from(timeout=5)
    assert again == rebuilt(first)
    assert await bob.receive_nothing(timeout=0.3)  # the opponent hears it once
    assert await database_sync_to_async(Turn.objects.filter(game=game).count)() == 1
    for comm in (alice, bob):
        await comm.disconnect()


async def test_it_refuses_a_different_token_for_a_played_ply_with_the_state(game, connect):
    alice = await connect(game.id, "alice")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": "c"})
    await receive_type(alice, "turn")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": "d"})
    error = await alice.receive_json_from(timeout=5)
    assert (error["type"], error["code"], error["ply"]) == ("error", "stale_ply", 1)
    state = await alice.receive_json_from(timeout=5)
    assert state["type"] == "state" and state["state"]["ply"] == 1
    assert state["state"]["you"] == "blue"
    await alice.disconnect()


async def test_it_refuses_a_future_ply(game, connect):
    alice = await connect(game.id, "alice")
    await alice.send_json_to({"type": "turn", "ply": 3, "token": "c"})
    assert (await alice.receive_json_from(timeout=5))["code"] == "stale_ply"
    assert (await alice.receive_json_from(timeout=5))["state"]["ply"] == 0
    assert await database_sync_to_async(Turn.objects.count)() == 0
    await alice.disconnect()


async def test_it_refuses_an_illegal_token(game, connect):
    alice = await connect(game.id, "alice")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": "z"})
    frame = await alice.receive_json_from(timeout=5)
    assert (frame["code"], frame["ply"]) == ("illegal", 0)
    assert await database_sync_to_async(Turn.objects.count)() == 0
    await alice.disconnect()


async def test_a_resent_last_turn_after_a_resignation_gets_the_original_frame(game, users,
                                                                             connect):
    from games import services

    alice = await connect(game.id, "alice")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": "c"})
    first = await receive_type(alice, "turn")
    await database_sync_to_async(services.resign)(game.id, actor=Actor.of_user(users["bob"]))
    await receive_type(alice, "resigned")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": "c"})
    again = await alice.receive_json_from(timeout=5)
    for frame in (first, again):  # players carry current ratings, changed by the result
        del frame["state"]["players"], frame["state"]["seats"]
    assert again == rebuilt(first)
    assert again["state"]["resigned"] is None and not again["state"]["over"]
    await alice.disconnect()
