"""The profile page /@/<username>: joined, ratings, record and recent games (the stats,
charts and achievements are tested in tests/profile/)."""

import pytest
from django.contrib.auth import get_user_model

from games import services
from tests.games.support import Actor, new_game


@pytest.mark.django_db
def test_it_shows_rating_record_and_recent_games(client, django_capture_on_commit_callbacks):
    User = get_user_model()
    alice = User.objects.create_user("alice", "alice@example.com", "pw-cargo-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-cargo-123")
    with django_capture_on_commit_callbacks(execute=True):
        won = new_game(alice, bob, size=5)
        services.resign(won.id, actor=Actor.of_user(bob))
    with django_capture_on_commit_callbacks(execute=True):
        lost = new_game(bob, alice, size=6)
        services.resign(lost.id, actor=Actor.of_user(alice))
    playing = new_game(alice, bob, size=7)

    response = client.get("/@/alice")
    assert response.status_code == 200
    ctx = response.context
    online = ctx["modes"][0]
    assert (online["played"], online["won"], online["lost"]) == (2, 1, 1)
    assert ctx["ratings"][0]["rating"] == 1198  # +20 at K 40, then -22 (expected 0.557)
    assert [r["game"].id for r in ctx["recent"]] == [playing.id, lost.id, won.id]
    html = response.content.decode()
    for game in (won, lost, playing):
        assert f'href="/g/{game.id}"' in html
    assert alice.date_joined.strftime("%Y") in html


@pytest.mark.django_db
def test_an_unknown_player_is_404_and_profile_redirects_to_your_own(client):
    assert client.get("/@/nobody").status_code == 404
    user = get_user_model().objects.create_user("dora", "dora@example.com", "pw-cargo-123")
    client.force_login(user)
    assert client.get("/profile")["Location"] == "/@/dora"
