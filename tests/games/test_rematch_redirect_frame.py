"""An accepted rematch: the `rematch` frame both players' sockets get carries the new
game's URL (the page goes there), and the accepter's own answer does too."""

import pytest
from channels.db import database_sync_to_async

from games import services
from tests.games.support import Actor, receive_type


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_both_sockets_get_the_new_games_url(game, users, connect):
    alice = await connect(game.id, "alice")
    bob = await connect(game.id, "bob")
    await database_sync_to_async(services.resign)(game.id, actor=Actor.of_user(users["alice"]))
    await database_sync_to_async(services.offer_rematch)(
        game.id, actor=Actor.of_user(users["alice"]))
    for comm in (alice, bob):
        assert (await receive_type(comm, "rematch"))["rematch"]["url"] is None
    answer = await database_sync_to_async(services.offer_rematch)(
        game.id, actor=Actor.of_user(users["bob"]))
    new_id = answer["rematch"]["game"]
    assert answer["rematch"]["url"] == f"/g/{new_id}"
    for comm in (alice, bob):
        frame = await receive_type(comm, "rematch")
        assert frame["rematch"] == {"offered_by": "blue", "game": new_id, "url": f"/g/{new_id}"}
    for comm in (alice, bob):
        await comm.disconnect()
