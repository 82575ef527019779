"""POST /g/<id>/turn: the plain-HTTP path for a turn when WebSockets are blocked."""

import pytest

from games.models import Turn
from tests.games.support import rebuilt


@pytest.mark.django_db
def test_it_plays_a_turn_over_http_like_the_socket(game, users, client):
    client.force_login(users["alice"])
    response = client.post(f"/g/{game.id}/turn", {"ply": 0, "token": "c"})
    assert response.status_code == 200
    frame = response.json()
    assert (frame["type"], frame["ply"], frame["token"], frame["side"]) == ("turn", 0, "c",
                                                                            "blue")
    assert frame["state"]["ply"] == 1 and "you" not in frame["state"]
    assert client.post(f"/g/{game.id}/turn", {"ply": 0, "token": "c"}).json() == rebuilt(frame)
    stale = client.post(f"/g/{game.id}/turn", {"ply": 0, "token": "d"})
    assert stale.status_code == 409
    assert stale.json()["code"] == "stale_ply" and stale.json()["state"]["ply"] == 1
    assert Turn.objects.count() == 1


@pytest.mark.django_db
def test_it_refuses_bad_input_outsiders_and_csrf_less_posts(game, users, client):
    client.force_login(users["alice"])
    assert client.post(f"/g/{game.id}/turn", {"ply": "x", "token": "c"}).status_code == 400
    assert client.post(f"/g/{game.id}/turn", {"ply": 0, "token": "z9"}).status_code == 400
    client.force_login(users["bob"])
    assert client.post(f"/g/{game.id}/turn", {"ply": 0, "token": "c"}).status_code == 409
    client.force_login(users["carol"])
    assert client.post(f"/g/{game.id}/turn", {"ply": 0, "token": "c"}).status_code == 403
    client.logout()
    assert client.post(f"/g/{game.id}/turn", {"ply": 0, "token": "c"}).status_code == 403

    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(users["alice"])
    assert strict.post(f"/g/{game.id}/turn", {"ply": 0, "token": "c"}).status_code == 403
    assert Turn.objects.count() == 0
