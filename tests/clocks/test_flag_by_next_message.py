"""A flag falls on the next message when no check came first: the late turn, a resign or
opening the game ends it on time, once, and the late request is refused."""

import pytest

from games import services
from games.models import Turn
from games.timing import timeouts
from tests.clocks.support import legal, pass_time, play, start, timed_game
from tests.games.support import member, receive_type

pytestmark = pytest.mark.django_db


def test_a_turn_after_the_flag_ends_the_game_on_time(users):
    game = start(timed_game(users["alice"], users["bob"]), users)
    pass_time(game.id, 5 * 60 + 2)
    token = next(t for t in legal(game.id) if len(t) == 1)
    with pytest.raises(services.GameError) as refused:
        play(game.id, users["alice"], token)
    assert refused.value.code == "game_over"
    assert refused.value.message == "the game is over: Blue's time ran out"
    game = services.get_game(game.id)
    assert (game.termination, game.ply, Turn.objects.filter(game=game).count()) == (
        "timed_out", 2, 2)
    with pytest.raises(services.GameError) as again:  # the same turn, resent
        play(game.id, users["alice"], token)
    assert again.value.message == "the game is over"
    assert timeouts.flag(game.id) is None


def test_resigning_after_the_flag_counts_the_flag(users):
    game = start(timed_game(users["alice"], users["bob"]), users)
    pass_time(game.id, 5 * 60 + 2)  # Blue's flag; then Orange tries to resign
    with pytest.raises(services.GameError):
        services.resign(game.id, actor=member(users["bob"]))
    game = services.get_game(game.id)
    assert game.termination == "timed_out"
    assert [s.outcome for s in game.seat_list] == ["loss", "win"]


def test_opening_the_page_ends_it(users, client):
    game = start(timed_game(users["alice"], users["bob"]), users)
    pass_time(game.id, 5 * 60 + 2)
    client.force_login(users["carol"])
    assert client.get(f"/g/{game.id}").status_code == 200
    assert services.get_game(game.id).termination == "timed_out"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_over_the_socket_the_players_hear_ended(users, connect):
    from channels.db import database_sync_to_async as sync

    game = await sync(timed_game)(users["alice"], users["bob"])
    await sync(start)(game, users)
    await sync(pass_time)(game.id, 5 * 60 + 2)
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    assert alice.first["state"]["status"] == "finished"  # connecting was the next message
    assert alice.first["state"]["ending"]["termination"] == "timed_out"
    await bob.send_json_to({"type": "turn", "ply": 2, "token": "a"})
    error = await receive_type(bob, "error")
    assert error["code"] == "game_over"
    for comm in (alice, bob):
        await comm.disconnect()
