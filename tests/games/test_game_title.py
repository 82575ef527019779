"""The game page's title names the players: "marta vs kofi · Cargo Connect"."""

import pytest
from django.contrib.auth import get_user_model

from tests.games.support import new_bot_game, new_game


@pytest.mark.django_db
def test_the_title_is_the_players_then_the_site(client):
    User = get_user_model()
    marta = User.objects.create_user("marta", "m@example.com", "a-long-cargo-pass")
    kofi = User.objects.create_user("kofi", "k@example.com", "a-long-cargo-pass")
    game = new_game(marta, kofi)
    html = client.get(f"/g/{game.id}").content.decode()
    assert "<title>marta vs kofi · Cargo Connect</title>" in html


@pytest.mark.django_db
def test_a_bot_seat_is_named_by_its_level(client):
    marta = get_user_model().objects.create_user("marta", "m@example.com", "a-long-cargo-pass")
    game = new_bot_game(user=marta, level="easy", color="blue")
    html = client.get(f"/g/{game.id}").content.decode()
    assert "<title>marta vs CargoBot Easy · Cargo Connect</title>" in html
