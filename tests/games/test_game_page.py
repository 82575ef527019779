"""The game page /g/<id>: the page's context (docs/live-protocol.md) for players and
spectators; an unknown id is 404."""

import json

import pytest


@pytest.mark.django_db
@pytest.mark.parametrize("name, you", [("alice", "blue"), ("bob", "orange"),
                                       ("carol", None), (None, None)])
def test_it_renders_the_state_and_urls(game, users, client, name, you):
    if name:
        client.force_login(users[name])
    response = client.get(f"/g/{game.id}")
    assert response.status_code == 200
    ctx = response.context
    state = json.loads(ctx["state_json"])
    assert state["you"] == you
    assert (state["id"], state["ply"], state["size"], state["status"]) == (game.id, 0, 5,
                                                                          "active")
    assert state["players"]["blue"] == {"name": "alice", "title": None, "rating": 1200,
                                        "bot": None,
                                        "rating_kind": "elo", "rating_change": None,
                                        "rating_provisional": False, "left": None}
    assert state["rematch"] is None and state["resigned"] is None and state["turns"] == []
    assert ctx["ws_path"] == f"/ws/game/{game.id}/"
    assert ctx["turn_url"] == f"/g/{game.id}/turn"
    assert ctx["resign_url"] == f"/g/{game.id}/resign"
    assert ctx["events_url"] == f"/g/{game.id}/events"
    assert ctx["record_url"] == f"/g/{game.id}.ccn"
    assert ctx["rematch_url"] == f"/g/{game.id}/rematch"
    assert ctx["csrf_token"] and ctx["game"].id == game.id


@pytest.mark.django_db
def test_an_unknown_game_is_404(client):
    assert client.get("/g/AAAAAAAAAA").status_code == 404
    assert client.get("/g/short").status_code == 404
