"""GET /g/<id>.ccn (and /g/<id>/record.ccn): the record in the notation, as an attachment."""

import pytest

from engine import Game as EngineGame
from engine import parse_record
from games import services
from tests.games.support import Actor, scripted_tokens


@pytest.mark.django_db
def test_it_downloads_the_record_with_headers(game, users, client):
    tokens = scripted_tokens(5)
    for ply, token in enumerate(tokens):
        services.apply_turn(game.id, actor=Actor.of_user(users["alice" if ply % 2 == 0 else "bob"]),
                            ply=ply, token=token)
    for url in (f"/g/{game.id}.ccn", f"/g/{game.id}/record.ccn"):
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        assert response["Content-Disposition"] == f'attachment; filename="cargo-{game.id}.ccn"'
    record = parse_record(response.content.decode())
    assert record.tokens == tokens
    headers = record.headers
    assert (headers["Blue"], headers["Orange"], headers["Site"]) == ("alice", "bob",
                                                                     "http://testserver")
    assert headers["Size"] == "5" and headers["Rules"] == "0.92"
    assert headers["Date"] == game.created_at.strftime("%Y.%m.%d")
    replayed = EngineGame.from_record(record)
    expected = {"blue": "1-0", "orange": "0-1", None: "1/2-1/2"}[replayed.result()["winner"]]
    assert headers["Result"] == expected


@pytest.mark.django_db
def test_a_game_in_progress_has_result_star(game, client):
    assert '[Result "*"]' in client.get(f"/g/{game.id}.ccn").content.decode()


@pytest.mark.django_db
def test_an_unknown_game_is_404(client):
    assert client.get("/g/AAAAAAAAAA.ccn").status_code == 404
