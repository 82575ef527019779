"""A live turn is charged the time since the frame that put the player to move, less the
lag allowance, then gets the increment; correspondence gives a whole turn's time again."""

import pytest

from games import services
from games.timing import clocks
from tests.clocks.support import left_ms, pass_time, play, start, timed_game

pytestmark = pytest.mark.django_db
SLACK = 1500  # ms of real time the test itself may take


def test_the_increment_is_added_after_the_charge(users):
    game = start(timed_game(users["alice"], users["bob"], "5+3"), users)
    assert left_ms(game.id) == [300_000, 300_000]  # the first turns are not charged
    pass_time(game.id, 10)
    play(game.id, users["alice"])
    blue, orange = left_ms(game.id)
    expected = 300_000 - (10_000 - clocks.LAG_ALLOWANCE_MS) + 3_000
    assert expected - SLACK <= blue <= expected and orange == 300_000
    state = services.state_of(services.get_game(game.id))
    assert state["clock"]["running"] == [1]  # Orange's clock runs now


def test_a_quick_turn_within_the_lag_allowance_costs_nothing(users):
    game = start(timed_game(users["alice"], users["bob"], "3+2"), users)
    play(game.id, users["alice"])  # at once: less than the lag allowance
    assert left_ms(game.id)[0] == 180_000 + 2_000


def test_correspondence_gives_each_turn_its_days_again(users):
    game = start(timed_game(users["alice"], users["bob"], "1d"), users)
    pass_time(game.id, 20 * 3600)
    services.state_of(services.get_game(game.id))
    play(game.id, users["alice"])
    assert left_ms(game.id)[0] == 86_400_000
    state = services.state_of(services.get_game(game.id))
    assert state["clock"]["control"]["label"] == "1 day per turn"
