"""Challenge a friend by link: whoever follows it while signed in may accept; signing in
on the way keeps the link; a chosen colour is kept."""

import pytest

from games.models import Challenge, Game


@pytest.mark.django_db
def test_a_link_challenge_survives_the_sign_in_redirect(users, client):
    client.force_login(users["alice"])
    response = client.post("/play/seek", {"size": 5, "color": "blue", "mode": "link",
                                         "time_control": "1d"})
    challenge = Challenge.objects.get()
    assert response["Location"] == f"/challenge/{challenge.id}"
    assert not challenge.public
    assert client.get("/play/seeks.json").json()["seeks"] == []  # not in the lobby
    page = client.get(f"/challenge/{challenge.id}").content.decode()
    assert "Waiting for an opponent" in page

    client.logout()
    response = client.get(f"/challenge/{challenge.id}")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/challenge/{challenge.id}"
    response = client.post(response["Location"], {"login": "bob",
                                                  "password": "a-long-cargo-pass"})
    assert response["Location"] == f"/challenge/{challenge.id}"
    assert "Accept and play" in client.get(response["Location"]).content.decode()

    response = client.post(f"/challenge/{challenge.id}/accept")
    game = Game.objects.get()
    assert response["Location"] == f"/g/{game.id}"
    assert (game.user_at(0), game.user_at(1)) == (users["alice"], users["bob"])
    # Both players following the link again go to the game.
    assert client.get(f"/challenge/{challenge.id}")["Location"] == f"/g/{game.id}"
    client.force_login(users["alice"])
    assert client.get(f"/challenge/{challenge.id}.json").json()["url"] == f"/g/{game.id}"


@pytest.mark.django_db
def test_an_unknown_challenge_is_404(users, client):
    client.force_login(users["alice"])
    assert client.get("/challenge/AAAAAAAAAA").status_code == 404
