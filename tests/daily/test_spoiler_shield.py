"""The spoiler shield: while the day lasts, other people's daily games of that day can't be
watched, replayed or downloaded (page, socket, events, replay, record); after it, they can.
The player sees their own game from any device."""

import pytest

from games.actors import Actor
from puzzles.daily import services as daily
from tests.daily.conftest import pacific, play_turns

pytestmark = pytest.mark.django_db(transaction=True)

PATHS = ["/g/{id}", "/g/{id}/replay", "/g/{id}/replay.json", "/g/{id}.ccn",
         "/g/{id}/events?after=0"]


@pytest.fixture
def alices_game(frozen, users, eager):
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "easy")
    play_turns(game.id, alice, 1)
    return game


def test_others_cannot_look_while_the_day_lasts(alices_game, client, users):
    for who in (None, "bob"):
        if who:
            client.force_login(users[who])
        for path in PATHS:
            response = client.get(path.format(id=alices_game.id))
            assert response.status_code == 403, (who, path)
    assert "once the day ends" in client.get(f"/g/{alices_game.id}").content.decode()


def test_the_player_can(alices_game, client, users):
    client.force_login(users["alice"])
    for path in PATHS:
        assert client.get(path.format(id=alices_game.id)).status_code == 200, path


def test_after_the_day_everyone_can(alices_game, client, frozen):
    frozen.set(pacific(2026, 3, 10, 0, 0, 0))
    for path in PATHS:
        assert client.get(path.format(id=alices_game.id)).status_code == 200, path


@pytest.mark.asyncio
async def test_the_socket_refuses_a_spectator(alices_game, connect):
    comm = await connect(alices_game.id, "bob", expect_state=False)
    assert not getattr(comm, "connected", False)
    assert comm.close_code == 4403  # accepted, then closed: the page reads the code
    mine = await connect(alices_game.id, "alice")
    await mine.disconnect()


def test_other_games_are_untouched(users, client):
    from tests.games.support import new_game

    game = new_game(users["alice"], users["bob"])
    assert client.get(f"/g/{game.id}").status_code == 200
