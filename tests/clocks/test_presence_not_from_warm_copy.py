"""Issue #27, item 1: a false "Your opponent left" in live timed games. A process keeps a
game warm from the first page that opens it (games.fast.warm); the seats of that copy were read
when only that player had arrived. Presence is not the turn's business: a turn frame built
from the copy must say where each player is now, not where they were when it was loaded."""

import pytest

from games import services
from games.fast import warm
from games.models import Seat
from tests.clocks.support import BLUE, ORANGE, play

# The warm copy is kept after commits: real commits.
pytestmark = pytest.mark.django_db(transaction=True)


def open_page(game_id, seat):
    """What the game socket does when a player's page opens (GameConsumer.load_state)."""
    game = services.get_game(game_id)
    services.player_arrived(game, seat)
    warm.keep_if_cold(game, services.live(game))


@pytest.mark.fast_path  # the turns come from the warm copy (games.fast.warm)
def test_a_turn_from_the_warm_copy_does_not_say_the_opponent_left(users):
    from tests.clocks.support import timed_game

    game = timed_game(users["alice"], users["bob"], "5+3")
    warm.clear()
    open_page(game.id, BLUE)  # Blue's page first: the copy has Orange never connected
    open_page(game.id, ORANGE)
    assert list(Seat.objects.filter(game=game).order_by("index")
                .values_list("sockets", flat=True)) == [1, 1]
    frames = [play(game.id, users["alice"]).frame, play(game.id, users["bob"]).frame,
              play(game.id, users["alice"]).frame]
    assert warm.get(game.id) is not None  # the later turns came from the warm copy
    for frame in frames:
        away = frame["state"]["abandon"] and frame["state"]["abandon"]["away"]
        assert away in (None, [None, None]), frame["state"]["abandon"]
    state = services.state_of(services.get_game(game.id), viewer=BLUE)
    assert state["abandon"]["away"] == [None, None]


def test_a_turn_frame_says_when_the_opponent_really_left(users):
    from tests.clocks.support import timed_game

    game = timed_game(users["alice"], users["bob"], "5+3")
    warm.clear()
    open_page(game.id, BLUE)
    open_page(game.id, ORANGE)
    play(game.id, users["alice"])
    play(game.id, users["bob"])
    services.player_went_away(game.id, ORANGE)
    frame = play(game.id, users["alice"]).frame
    away = frame["state"]["abandon"]["away"]
    assert away[BLUE] is None and away[ORANGE] is not None and away[ORANGE] < 10_000
