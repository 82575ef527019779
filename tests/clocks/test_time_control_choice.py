"""Seeks, challenges and games against CargoBot choose a time control: a form field checked
on the server. A bad value is refused with words that name the choices, and nothing is
made; untimed seeks make casual games; CargoBot has no clock and no correspondence."""

import pytest

from games import services
from games.models import Challenge, Game
from tests.games.support import member

pytestmark = pytest.mark.django_db


def test_a_seek_keeps_its_time_control_and_the_game_gets_it(users, client):
    client.force_login(users["alice"])
    page = client.get("/play/").content.decode()
    assert 'name="time_control" value="10+5" checked' in page  # the lobby's pills
    client.post("/play/seek", {"size": 5, "color": "blue", "time_control": "3+2"})
    seek = Challenge.objects.get()
    assert seek.time_control == "3+2"
    info = client.get("/play/seeks.json").json()["seeks"][0]
    assert (info["time_control"], info["time_control_label"], info["rated"]) == (
        "3+2", "3+2", True)
    game = services.accept_challenge(users["bob"], seek.id)
    assert (game.time_control, game.rated, game.clock["left"]) == ("3+2", True,
                                                                  [180_000, 180_000])


def test_bad_or_missing_time_controls_are_refused_clearly(users, client):
    client.force_login(users["alice"])
    for value in ("2+1", "5+3x", "30d", None):
        data = {"size": 5} | ({} if value is None else {"time_control": value})
        response = client.post("/play/seek", data, follow=True)
        text = response.content.decode()
        assert "3+2, 5+3, 10+5, 15+10, 1d, 2d, 3d, 5d, 7d, 14d, untimed" in text, value
    assert not Challenge.objects.exists()
    with pytest.raises(services.GameError) as refused:
        services.create_challenge(users["alice"], options={"size": 5}, time_control="0+5")
    assert "1 to 180 minutes" in refused.value.message


def test_an_untimed_challenge_makes_a_casual_game(users, client):
    client.force_login(users["alice"])
    client.post("/play/seek", {"size": 5, "mode": "link", "time_control": "untimed"})
    challenge = Challenge.objects.get()
    assert "casual: not rated" in client.get(f"/challenge/{challenge.id}").content.decode()
    game = services.accept_challenge(users["bob"], challenge.id)
    assert (game.time_control, game.clock, game.rated) == ("", None, False)


def test_cargobot_games_give_the_player_a_clock_and_none_to_the_bot(users, client):
    client.force_login(users["alice"])
    client.post("/play/bot", {"level": "easy", "size": 5, "color": "blue",
                              "time_control": "5+3"})
    game = Game.objects.get()
    assert game.time_control == "5+3" and game.clock["left"] == [300_000, None]
    response = client.post("/play/bot", {"level": "easy", "size": 5, "time_control": "1d"},
                           follow=True)
    assert "is not a time control here" in response.content.decode()
    with pytest.raises(services.GameError) as refused:
        services.create_bot_game(actor=member(users["alice"]), level="easy",
                                 options={"size": 5}, time_control="3d")
    assert "untimed or live" in refused.value.message
    assert Game.objects.count() == 1
