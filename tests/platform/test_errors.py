"""One error type: each code knows its HTTP status and builds its own frame; a missing
game is a 404 on every route, page or JSON."""

import pytest

from games.frames.protocol import Code, GameError, NotFound


def test_each_code_builds_its_frame_and_knows_its_status():
    error = GameError(Code.STALE_PLY, "the game is at ply 3", 3, state={"ply": 3})
    assert error.frame() == {"type": "error", "code": "stale_ply",
                             "message": "the game is at ply 3", "ply": 3}
    assert error.body()["state"] == {"ply": 3} and error.status == 409
    statuses = {code.code: code.status for code in Code}
    assert statuses["not_a_player"] == 403 and statuses["not_found"] == 404
    assert statuses["illegal"] == 400 and statuses["bad_frame"] == 400
    assert NotFound("game").frame()["message"] == "no such game"


@pytest.mark.django_db
@pytest.mark.parametrize("method,path", [
    ("get", "/g/0000000000"), ("get", "/g/0000000000.ccn"), ("get", "/g/0000000000/replay"),
    ("get", "/g/0000000000/replay.json"), ("get", "/g/0000000000/events"),
    ("post", "/g/0000000000/resign"), ("post", "/g/0000000000/rematch"),
    ("post", "/g/0000000000/turn"),
])
def test_a_missing_game_is_404_for_a_member(client, django_user_model, method, path):
    client.force_login(django_user_model.objects.create_user("dora", password="x" * 12))
    data = {"ply": 0, "token": "a"} if method == "post" else {}
    response = getattr(client, method)(path, data)
    assert response.status_code == 404
