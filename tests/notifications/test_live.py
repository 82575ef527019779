"""A notification goes live to every socket the member has open (the lobby's and a game's),
with its id and the unread count; one made while the member is away is kept, and the list
page (and `status.json`, a page's catch-up after its socket comes back) has it."""

import pytest
from channels.db import database_sync_to_async

from games import services
from tests.games.support import drain, receive_type
from tests.notifications.support import correspondence_game, play


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_it_reaches_the_lobby_and_game_sockets_of_the_member_only(users, connect):
    alice, bob = users["alice"], users["bob"]
    game = await database_sync_to_async(correspondence_game)(alice, bob)
    lobby = await connect("/ws/lobby/", "bob")
    on_game = await connect(game.id, "bob")
    alice_lobby = await connect("/ws/lobby/", "alice")
    await database_sync_to_async(play)(game.id, alice)
    for socket in (lobby, on_game):
        frame = await receive_type(socket, "notification")
        assert frame["text"] == "Your turn in Cargo Connect with alice"
        assert frame["unread"] == 1 and frame["kind"] == "your_turn"
        assert frame["url"] == f"/g/{game.id}" and isinstance(frame["id"], int)
    assert not [f for f in await drain(alice_lobby) if f["type"] == "notification"]
    for socket in (lobby, on_game, alice_lobby):
        await socket.disconnect()


@pytest.mark.django_db
def test_one_made_while_away_is_kept_for_the_list_which_marks_it_read(users, client):
    alice, bob = users["alice"], users["bob"]
    game = correspondence_game(alice, bob)
    play(game.id, alice)
    client.force_login(bob)
    assert client.get("/notifications/status.json").json()["unread"] == 1
    page = client.get("/").content.decode()
    assert 'data-bell-count>1<' in page
    listed = client.get("/notifications/").content.decode()
    assert "Your turn in Cargo Connect with alice" in listed and "is-new" in listed
    status = client.get("/notifications/status.json").json()
    assert status["unread"] == 0 and status["last"] > 0
    assert "is-new" not in client.get("/notifications/").content.decode()
    assert services.get_game(game.id).ply == 1


@pytest.mark.django_db
def test_the_pages_are_for_members(client):
    assert client.get("/notifications/")["Location"].startswith("/accounts/login/")
    assert client.get("/notifications/status.json")["Location"].startswith("/accounts/login/")
    assert client.get("/notifications/settings")["Location"].startswith("/accounts/login/")
