"""The site cuts a seat's clock before its first decision (an arena's berserk,
docs/tournaments-arena.md): the time left it is given, and no increment for the rest of the
game when asked; refused, with nothing changed, once the seat has decided, for more time,
or without a live clock."""

import pytest

from games import services
from games.timing import clocks
from tests.clocks.support import left_ms, pass_time, play, start, timed_game

pytestmark = pytest.mark.django_db
SLACK = 1500  # ms of real time the test itself may take


def test_a_cut_seat_keeps_its_time_and_gains_no_increment(users):
    game = timed_game(users["alice"], users["bob"], "5+3")
    services.cut_clock(game.id, 1, 150_000, increment=False)
    assert left_ms(game.id) == [300_000, 150_000]
    game = start(game, users)  # each seat's first turn: not charged
    assert left_ms(game.id) == [300_000, 150_000]
    play(game.id, users["alice"])  # Blue, at once: the increment as ever
    assert left_ms(game.id)[0] == 303_000
    pass_time(game.id, 10)
    play(game.id, users["bob"])  # Orange, charged, no increment
    orange = left_ms(game.id)[1]
    expected = 150_000 - (10_000 - clocks.LAG_ALLOWANCE_MS)
    assert expected - SLACK <= orange <= expected
    state = services.state_of(services.get_game(game.id))
    assert state["clock"]["remaining"][1] <= expected


def test_a_cut_is_refused_after_the_seat_decided_or_for_more_time(users):
    game = timed_game(users["alice"], users["bob"], "5+3")
    with pytest.raises(services.GameError, match="only be cut"):
        services.cut_clock(game.id, 0, 400_000, increment=False)
    start(game, users)
    with pytest.raises(services.GameError, match="decided already"):
        services.cut_clock(game.id, 0, 100_000, increment=False)
    untimed = timed_game(users["alice"], users["bob"], "")
    with pytest.raises(services.GameError, match="no live clock"):
        services.cut_clock(untimed.id, 0, 100_000, increment=False)
    assert left_ms(game.id)[0] == 300_000
