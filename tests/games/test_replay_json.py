"""GET /g/<id>/replay.json: the state at every ply and every turn with its events; the
replay page gets it as `replay_json`."""

import json

import pytest

from games import services
from tests.games.support import Actor, scripted_tokens


@pytest.mark.django_db
def test_it_serves_states_and_turns(game, users, client):
    tokens = scripted_tokens(5)[:6]
    for ply, token in enumerate(tokens):
        services.apply_turn(game.id, actor=Actor.of_user(users["alice" if ply % 2 == 0 else "bob"]),
                            ply=ply, token=token)
    services.resign(game.id, actor=Actor.of_user(users["bob"]))
    data = client.get(f"/g/{game.id}/replay.json").json()
    assert [s["ply"] for s in data["states"]] == list(range(7))
    assert [t["token"] for t in data["turns"]] == tokens
    assert [t["ply"] for t in data["turns"]] == list(range(6))
    assert [t["side"] for t in data["turns"]] == ["blue", "orange"] * 3
    assert all(e["ply"] == t["ply"] for t in data["turns"] for e in t["events"])
    assert data["states"][0]["rows"] == ["....."] * 5 and data["states"][0]["turns"] == []
    assert data["states"][3]["turns"] == tokens[:3] and not data["states"][3]["over"]
    final = data["states"][-1]
    assert final["resigned"] == "orange" and final["over"] and final["status"] == "finished"
    assert data["result"]["winner"] == "blue"
    assert all("you" not in s for s in data["states"])


@pytest.mark.django_db
def test_the_replay_page_gets_the_same_data(game, users, client):
    services.apply_turn(game.id, actor=Actor.of_user(users["alice"]), ply=0, token="c")
    services.resign(game.id, actor=Actor.of_user(users["alice"]))
    response = client.get(f"/g/{game.id}/replay")
    assert response.status_code == 200
    assert json.loads(response.context["replay_json"]) == client.get(
        f"/g/{game.id}/replay.json").json()


def test_the_replay_pages_script_json_is_json_scripts_own():
    """games.views.pages.script_json, the replay page's embedding (str.replace, for speed),
    escapes as Django's json_script does: the same tag, and `</script>`, `<!--` and `&` in
    the data stay inside it."""
    from django.utils.html import json_script

    from games.views.pages import script_json

    data = {"name": "</script><script>alert(1)</script>", "note": "<!-- & -->", "n": [1, 2.5],
            "accents": "Zoë ⚑"}
    assert script_json(json.dumps(data), "replay-data") == json_script(data, "replay-data")
