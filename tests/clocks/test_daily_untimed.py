"""Daily Challenge games stay untimed: no clock, nothing to flag, and no abort (the day's
game cannot be thrown away for a better start)."""

import pytest

from games import services
from puzzles.daily import services as daily
from tests.daily.conftest import eager, frozen
from tests.games.support import member

__all__ = ["eager", "frozen"]
pytestmark = pytest.mark.django_db


def test_a_daily_game_has_no_clock_and_cannot_be_aborted(frozen, eager, users):
    game = services.get_game(daily.start(member(users["alice"]), "medium").id)
    assert (game.time_control, game.clock, game.flag_at) == ("", None, None)
    state = services.state_of(game, viewer=0)
    assert "clock" not in state and state["abandon"] is None
    with pytest.raises(services.GameError) as refused:
        services.abort_game(game.id, actor=member(users["alice"]))
    assert refused.value.message == "this game cannot be aborted"
    assert services.get_game(game.id).status == "active"
