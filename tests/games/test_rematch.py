"""After a game: one player offers a rematch, the other accepting starts a new game with
colours swapped; the offer is in the state and pushed over the game socket."""

import pytest

from games import services
from games.models import Game
from tests.games.support import Actor, receive_type


@pytest.mark.django_db
def test_it_offers_then_accepts_with_colours_swapped(game, users, client):
    services.resign(game.id, actor=Actor.of_user(users["alice"]))
    client.force_login(users["alice"])
    offered = client.post(f"/g/{game.id}/rematch").json()
    assert offered["rematch"] == {"offered_by": "blue", "game": None, "url": None}
    assert client.post(f"/g/{game.id}/rematch").json()["rematch"]["game"] is None  # again
    client.force_login(users["bob"])
    accepted = client.post(f"/g/{game.id}/rematch").json()
    new_id = accepted["rematch"]["game"]
    new = Game.objects.get(id=new_id)
    assert (new.user_at(0), new.user_at(1), new.size) == (users["bob"], users["alice"], 5)
    state = client.get(f"/g/{game.id}/events?after=0").json()["state"]
    assert state["rematch"] == {"offered_by": "blue", "game": new_id, "url": f"/g/{new_id}"}


@pytest.mark.django_db
def test_it_refuses_a_rematch_before_the_end_or_from_a_spectator(game, users, client):
    client.force_login(users["alice"])
    assert client.post(f"/g/{game.id}/rematch").status_code == 400
    services.resign(game.id, actor=Actor.of_user(users["alice"]))
    client.force_login(users["carol"])
    assert client.post(f"/g/{game.id}/rematch").status_code == 403


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_offer_is_pushed_over_the_socket(game, users, connect):
    from channels.db import database_sync_to_async

    bob = await connect(game.id, "bob")
    await database_sync_to_async(services.resign)(game.id, actor=Actor.of_user(users["alice"]))
    await receive_type(bob, "resigned")
    await database_sync_to_async(services.offer_rematch)(
        game.id, actor=Actor.of_user(users["alice"]))
    frame = await receive_type(bob, "rematch")
    assert frame["rematch"] == {"offered_by": "blue", "game": None, "url": None}
    await bob.disconnect()
