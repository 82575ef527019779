"""GET /g/<id>/events?after=N: the catch-up of `sync` over plain HTTP (polling fallback)."""

import pytest

from games import services
from tests.games.support import Actor, scripted_tokens


@pytest.mark.django_db
def test_the_events_endpoint_serves_the_same_catch_up(game, users, client):
    tokens = scripted_tokens(5)[:2]
    services.apply_turn(game.id, actor=Actor.of_user(users["alice"]), ply=0, token=tokens[0])
    services.apply_turn(game.id, actor=Actor.of_user(users["bob"]), ply=1, token=tokens[1])
    client.force_login(users["bob"])
    data = client.get(f"/g/{game.id}/events?after=1").json()
    assert [t["token"] for t in data["turns"]] == tokens[1:]
    assert data["turns"][0]["type"] == "turn" and data["state"]["ply"] == 2
    assert data["state"]["you"] == "orange"
    assert len(client.get(f"/g/{game.id}/events?after=0").json()["turns"]) == 2
