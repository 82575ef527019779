"""Bad input on every endpoint: an unknown member, game or tournament (404 `not_found`),
a parameter of the wrong type or out of range (400 `bad_request`), each a JSON error with
its status, and nothing changed."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.api.support import bearer_client, finished_game, token_for

BAD = [
    ("/api/user/nobody-here", 404, "not_found"),
    ("/api/user/" + "x" * 200, 404, "not_found"),
    ("/api/game/AAAAAAAAAA", 404, "not_found"),
    ("/api/game/short", 404, "not_found"),
    ("/api/game/a.b;c-d_e!", 404, "not_found"),
    ("/api/games/user/nobody-here", 404, "not_found"),
    ("/api/games/user/marta?since=yesterday", 400, "bad_request"),
    ("/api/games/user/marta?until=-5", 400, "bad_request"),
    ("/api/games/user/marta?max=0", 400, "bad_request"),
    ("/api/games/user/marta?max=ten", 400, "bad_request"),
    ("/api/games/user/marta?rated=perhaps", 400, "bad_request"),
    ("/api/games/user/marta?game=chess", 400, "bad_request"),
    ("/api/games/user/marta?since=2000&until=1000", 400, "bad_request"),
    ("/api/games/user/marta?since=" + "9" * 30, 400, "bad_request"),
    ("/api/rankings?game=chess", 400, "bad_request"),
    ("/api/rankings?rating=glicko", 400, "bad_request"),
    ("/api/tournaments?game=chess", 400, "bad_request"),
    ("/api/tournament/NOPE000000", 404, "not_found"),
    ("/api/tournament/" + "T" * 40, 404, "not_found"),
]


@pytest.mark.parametrize(("url", "status", "code"), BAD, ids=[b[0][:60] for b in BAD])
def test_bad_input_is_a_clear_json_error_and_changes_nothing(people, url, status, code):
    finished_game(people["marta"], people["kofi"])
    client = bearer_client(token_for(people["marta"]))
    before = list(Game.objects.values_list("id", "status", "ply"))
    answer = client.get(url)
    assert answer.status_code == status
    assert answer["Content-Type"] == "application/json"
    body = answer.json()
    assert body["code"] == code and isinstance(body["error"], str) and body["error"]
    assert list(Game.objects.values_list("id", "status", "ply")) == before


def test_a_parameter_error_names_the_parameter(people):
    answer = bearer_client(token_for(people["marta"])).get("/api/games/user/marta?max=0")
    assert "max" in answer.json()["error"]


def test_a_write_method_on_a_read_endpoint_is_refused(people):
    client = bearer_client(token_for(people["marta"]))
    assert client.post("/api/user/marta", data="{not json", content_type="application/json"
                       ).status_code == 405
