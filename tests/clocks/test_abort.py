"""Before both players have moved either may abort: the game ends with no result and no
rating change, and is listed nowhere. After both have moved it can only be resigned."""

import pytest

from games import services
from games.models import Game
from rankings.models import Rating, RatingChange
from tests.clocks.support import play, start, timed_game
from tests.games.bot_support import eager
from tests.games.support import member, new_bot_game

__all__ = ["eager"]
pytestmark = pytest.mark.django_db


def test_either_player_aborts_before_both_have_moved(users, client):
    game = timed_game(users["alice"], users["bob"], "3+2")
    assert services.state_of(game, viewer=1)["abandon"]["abortable"] is True
    play(game.id, users["alice"])  # Blue has moved; Orange has not
    frame = services.abort_game(game.id, actor=member(users["bob"]))
    assert frame["type"] == "ended" and frame["state"]["over"]
    assert frame["state"]["ending"]["text"].startswith("Game aborted by Orange (bob)")
    game = services.get_game(game.id)
    assert (game.status, game.termination, game.ended_by) == ("aborted", "aborted", 1)
    assert [(s.outcome, s.place) for s in game.seat_list] == [("", None), ("", None)]
    assert not RatingChange.objects.exists() and not Rating.objects.filter(games__gt=0)
    client.force_login(users["alice"])
    assert game.id not in client.get("/@/alice/games").content.decode()
    with pytest.raises(services.GameError) as refused:
        services.apply_turn(game.id, actor=member(users["bob"]), ply=1, token="a")
    assert refused.value.code == "game_over"


def test_no_abort_once_both_have_moved_nor_by_spectators(users):
    game = timed_game(users["alice"], users["bob"])
    with pytest.raises(services.GameError) as outsider:
        services.abort_game(game.id, actor=member(users["carol"]))
    assert outsider.value.code == "not_a_player"
    start(game, users)
    with pytest.raises(services.GameError) as refused:
        services.abort_game(game.id, actor=member(users["alice"]))
    assert "can no longer be aborted" in refused.value.message
    assert services.get_game(game.id).status == "active"
    assert not services.state_of(services.get_game(game.id), viewer=0)["abandon"] \
        or not services.state_of(services.get_game(game.id), viewer=0)["abandon"]["abortable"]


def test_a_game_against_cargobot_is_aborted_without_a_rating(users):
    game = new_bot_game(users["alice"], color="blue")
    services.abort_game(game.id, actor=member(users["alice"]))
    assert Game.objects.get(id=game.id).status == "aborted"
    assert not Rating.objects.filter(user=users["alice"], system="vs_cargobot",
                                     games__gt=0).exists()


def test_an_untimed_game_is_aborted_over_http(users, client):
    game = services.create_game(game_type="cargo-connect", options={"size": 5},
                                seats=[member(users["alice"]), member(users["bob"])])
    client.force_login(users["alice"])
    answer = client.post(f"/g/{game.id}/abort").json()
    assert answer["type"] == "ended" and answer["termination"] == "aborted"
    again = client.post(f"/g/{game.id}/abort")
    assert again.status_code == 409 and again.json()["code"] == "game_over"


def test_once_cargobot_has_moved_the_state_says_the_game_can_no_longer_be_aborted(
        users, eager, django_capture_on_commit_callbacks):
    """Issue #27, item 4: "Abort the game" stayed all game against CargoBot. The page
    merges each state into the one it has, so a state whose `abandon` part went away must
    say so (null), or the page keeps the first state's "abortable"."""
    game = new_bot_game(users["alice"], color="blue")
    assert services.state_of(services.get_game(game.id), viewer=0)["abandon"]["abortable"]
    with django_capture_on_commit_callbacks(execute=True):  # CargoBot's task answers
        result = services.apply_turn(game.id, actor=member(users["alice"]), ply=0,
                                     token="a")
    assert result.frame["state"]["abandon"]["abortable"]  # CargoBot has not moved yet
    game = services.get_game(game.id)
    assert game.ply == 2
    state = services.state_of(game, viewer=0)
    assert "abandon" in state and state["abandon"] is None
    frame = services.turn_frames(game, 1)[0]  # CargoBot's turn as the pages got it
    assert "abandon" in frame["state"] and frame["state"]["abandon"] is None
