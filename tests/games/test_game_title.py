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


def test_the_header_says_what_the_game_is(users, client):
    """Issue #27, item 12: the header said only "Shift <id>"."""
    from games import services
    from tests.games.support import member

    game = services.create_game(game_type="cargo-connect", options={"size": 6},
                                seats=[member(users["alice"]), member(users["bob"])],
                                time_control="5+3")
    html = client.get(f"/g/{game.id}").content.decode()
    assert "<h1>Cargo Connect</h1>" in html
    assert ("<span>Rated</span> · <span>5+3</span> · <span>6×6</span> · "
            f"<span>game <code>{game.id}</code></span>") in html
