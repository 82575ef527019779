"""Seeks in the lobby: create, accept (not your own), cancel; the lobby socket pushes them."""

import pytest
from channels.db import database_sync_to_async

from games import services
from games.models import Challenge, Game
from tests.games.support import receive_type


@pytest.mark.django_db
def test_it_creates_a_seek_that_someone_else_accepts(users, client):
    client.force_login(users["alice"])
    response = client.post("/play/seek", {"size": 7, "color": "orange", "mode": "lobby",
                                         "time_control": "5+3"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    seek = Challenge.objects.get()
    assert (seek.public, seek.size, seek.rules, seek.color) == (True, 7, "0.92", "orange")
    assert [s["id"] for s in client.get("/play/seeks.json").json()["seeks"]] == [seek.id]
    assert seek.id in client.get("/play/").content.decode()

    response = client.post(f"/challenge/{seek.id}/accept")  # alice's own seek
    assert response.status_code == 302 and Game.objects.count() == 0

    client.force_login(users["bob"])
    response = client.post(f"/challenge/{seek.id}/accept")
    game = Game.objects.get()
    assert response["Location"] == f"/g/{game.id}"
    assert (game.user_at(0), game.user_at(1), game.size) == (users["bob"], users["alice"], 7)
    assert len(game.id) == 10 and game.id.isalnum()
    assert client.get("/play/seeks.json").json()["seeks"] == []
    client.force_login(users["carol"])  # too late
    client.post(f"/challenge/{seek.id}/accept")
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_the_creator_cancels_a_seek(users, client):
    seek = services.create_challenge(users["alice"], options={"size": 5})
    client.force_login(users["bob"])
    client.post(f"/challenge/{seek.id}/cancel")  # not bob's
    assert Challenge.objects.get().status == "open"
    client.force_login(users["alice"])
    client.post(f"/challenge/{seek.id}/cancel")
    assert Challenge.objects.get().status == "cancelled"
    assert client.get("/play/seeks.json").json()["seeks"] == []


@pytest.mark.django_db
def test_it_refuses_bad_sizes_and_anonymous_seeks(users, client):
    assert client.post("/play/seek", {"size": 6}).status_code == 302  # to sign in
    assert not Challenge.objects.exists()
    client.force_login(users["alice"])
    for size in (4, 9, "x"):
        client.post("/play/seek", {"size": size, "time_control": "5+3"})
    assert not Challenge.objects.exists()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_pushes_added_removed_and_accepted(users, connect):
    alice = await connect("/ws/lobby/", "alice")
    carol = await connect("/ws/lobby/", "carol")
    assert alice.first == {"type": "seeks", "seeks": []}
    seek = await database_sync_to_async(services.create_challenge)(
        users["alice"], options={"size": 6})
    for comm in (alice, carol):
        added = await receive_type(comm, "seek_added")
        assert added["seek"]["id"] == seek.id and added["seek"]["by"] == "alice"
    game = await database_sync_to_async(services.accept_challenge)(users["bob"], seek.id)
    for comm in (alice, carol):
        assert (await receive_type(comm, "seek_removed"))["id"] == seek.id
    accepted = await receive_type(alice, "seek_accepted")  # only to the creator
    assert accepted == {"type": "seek_accepted", "id": seek.id, "game": game.id,
                        "url": f"/g/{game.id}"}
    assert await carol.receive_nothing(timeout=0.3)
    for comm in (alice, carol):
        await comm.disconnect()
