"""A player may resign at any time during the game; the other wins."""

import pytest
from channels.db import database_sync_to_async

from games import services
from games.models import Game
from tests.games.support import Actor, receive_type, resigned_of, winner_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_it_resigns_over_the_socket_out_of_turn(game, connect):
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    await bob.send_json_to({"type": "resign", "ply": 0})  # not bob's turn: still allowed
    for comm in (alice, bob):
        frame = await receive_type(comm, "resigned")
        assert (frame["side"], frame["ply"]) == ("orange", 0)
        assert frame["events"][0]["type"] == "over"
        assert frame["events"][0]["resigned"] == "orange"
        assert frame["state"]["status"] == "finished" and frame["state"]["resigned"] == "orange"
        assert frame["state"]["result"]["winner"] == "blue"
    row = await database_sync_to_async(Game.objects.get)(id=game.id)
    ends = await database_sync_to_async(lambda: (winner_of(row), resigned_of(row)))()
    assert (row.status, *ends) == ("finished", "blue", "orange")

    await alice.send_json_to({"type": "turn", "ply": 0, "token": "a"})
    assert (await alice.receive_json_from(timeout=5))["code"] == "game_over"
    await alice.send_json_to({"type": "resign", "ply": 0})
    assert (await alice.receive_json_from(timeout=5))["code"] == "game_over"
    for comm in (alice, bob):
        await comm.disconnect()


def test_it_resigns_over_http(game, users, client):
    client.force_login(users["alice"])
    response = client.post(f"/g/{game.id}/resign", {"ply": 0})
    assert response.status_code == 200
    assert response.json()["type"] == "resigned" and response.json()["side"] == "blue"
    assert client.post(f"/g/{game.id}/resign").status_code == 409
    client.force_login(users["carol"])
    assert client.post(f"/g/{game.id}/resign").status_code == 403


def test_a_resigned_game_is_in_the_record(game, users):
    services.apply_turn(game.id, actor=Actor.of_user(users["alice"]), ply=0, token="c")
    services.resign(game.id, actor=Actor.of_user(users["alice"]))
    _, text = services.record_text(game.id, site="http://testserver")
    assert text.rstrip().endswith("c resign")
    assert '[Result "0-1"]' in text
