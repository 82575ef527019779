"""Quick pairing (the home page's Play buttons): take the oldest open seek by someone else
with the same options, or open one and wait in the lobby; pressing twice keeps one seek."""

import pytest

from games import services
from games.models import Challenge, Game


@pytest.mark.django_db
def test_the_first_player_waits_and_the_second_is_paired(users, client):
    client.force_login(users["alice"])
    response = client.post("/play/quick", {"size": 6})
    assert response.status_code == 302 and response["Location"] == "/play/"
    seek = Challenge.objects.get()
    assert (seek.public, seek.size, seek.status) == (True, 6, "open")
    client.post("/play/quick", {"size": 6})  # again: still one seek
    assert Challenge.objects.count() == 1

    client.force_login(users["bob"])
    response = client.post("/play/quick", {"size": 6})
    game = Game.objects.get()
    assert response["Location"] == f"/g/{game.id}"
    assert {game.user_at(0), game.user_at(1)} == {users["alice"], users["bob"]}
    assert Challenge.objects.get().status == "accepted"


@pytest.mark.django_db
def test_it_pairs_only_equal_options_and_the_oldest_first(users, client):
    services.create_challenge(users["alice"], options={"size": 8})
    older = services.create_challenge(users["bob"], options={"size": 6})
    services.create_challenge(users["alice"], options={"size": 6})
    client.force_login(users["carol"])
    client.post("/play/quick", {"size": 6})
    game = Game.objects.get()
    assert Challenge.objects.get(id=older.id).game_id == game.id
    assert users["bob"] in (game.user_at(0), game.user_at(1))


@pytest.mark.django_db
def test_a_bad_size_or_a_visitor_changes_nothing(users, client):
    assert client.post("/play/quick", {"size": 6}).status_code == 302  # to sign in
    client.force_login(users["alice"])
    client.post("/play/quick", {"size": 11})
    assert not Challenge.objects.exists() and not Game.objects.exists()


@pytest.mark.django_db
def test_it_pairs_only_the_same_time_control(users, client):
    blitz = services.create_challenge(users["bob"], options={"size": 6}, time_control="3+2")
    client.force_login(users["carol"])
    client.post("/play/quick", {"size": 6, "time_control": "10+5"})
    assert not Game.objects.exists()  # bob's 3+2 seek is not a 10+5 one
    mine = Challenge.objects.get(creator=users["carol"])
    assert mine.time_control == "10+5"
    client.force_login(users["alice"])
    client.post("/play/quick", {"size": 6, "time_control": "3+2"})
    game = Game.objects.get()
    assert Challenge.objects.get(id=blitz.id).game_id == game.id
    assert game.time_control == "3+2"


@pytest.mark.django_db
def test_a_bad_time_control_changes_nothing(users, client):
    client.force_login(users["alice"])
    client.post("/play/quick", {"size": 6, "time_control": "2+0"})
    assert not Challenge.objects.exists()
