"""A flag falls by the scheduled check (the beat's task), once: a second beat or a repeated
check finds nothing to do, and the rating changes once, as for any decided result."""

import pytest

from accounts.models import Player
from games import services, tasks
from games.timing import timeouts
from rankings.models import RatingChange
from tests.clocks.support import pass_time, start, timed_game

pytestmark = pytest.mark.django_db


def test_the_beat_ends_a_game_on_time_once(users):
    game = start(timed_game(users["alice"], users["bob"], "3+2"), users)
    assert tasks.flag_clocks() == []  # Blue's clock runs, with time left
    pass_time(game.id, 3 * 60 + 0.5)  # 3 minutes: within the lag allowance still
    assert tasks.flag_clocks() == []
    pass_time(game.id, 1)
    assert tasks.flag_clocks() == [game.id]

    game = services.get_game(game.id)
    assert (game.status, game.termination) == ("finished", "timed_out")
    assert [s.outcome for s in game.seat_list] == ["loss", "win"]
    assert game.seat_list[0].resigned and game.flag_at is None and game.clock_since is None
    assert game.clock["left"][0] == 0  # Blue's clock shows it ran out
    state = services.state_of(game, viewer=1)
    assert state["over"] and state["clock"]["running"] == []
    assert state["ending"]["text"] == "Blue (alice) ran out of time: Orange (bob) wins"

    assert tasks.flag_clocks() == []  # the next beat
    assert tasks.flag_clock(game.id) is False  # the watcher's task, late
    assert timeouts.flag(game.id) is None
    assert RatingChange.objects.filter(game=game).count() == 2  # once, like any result
    assert Player.objects.get(user=users["bob"]).rating == 1220
    assert Player.objects.get(user=users["alice"]).rating == 1180


def test_no_clock_runs_before_both_have_moved(users):
    game = timed_game(users["alice"], users["bob"], "3+2")
    pass_time(game.id, 3600)
    assert tasks.flag_clocks() == []
    assert services.get_game(game.id).flag_at is None
    state = services.state_of(services.get_game(game.id))
    assert state["clock"]["running"] == [] and not state["clock"]["started"]
