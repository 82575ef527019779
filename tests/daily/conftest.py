"""Daily Challenge fixtures: the live-play users and sockets, a frozen clock (the
Challenge reads the time only through `puzzles.daily.clock.now`), eager bot tasks, and
helpers that play a daily game through the services."""

import datetime as dt

import pytest

from puzzles.daily import clock
from tests.games.bot_support import eager, human_token
from tests.games.conftest import close_live_db_threads, connect, session_cookie, users

__all__ = ["close_live_db_threads", "connect", "eager", "session_cookie", "users"]

PACIFIC = clock.PACIFIC


def pacific(*args: int) -> dt.datetime:
    """An aware datetime given in Pacific wall time."""
    return dt.datetime(*args, tzinfo=PACIFIC)


class FrozenClock:
    def __init__(self, moment: dt.datetime) -> None:
        self.moment = moment

    def set(self, moment: dt.datetime) -> None:
        self.moment = moment

    def now(self) -> dt.datetime:
        return self.moment.astimezone(dt.UTC)


@pytest.fixture
def frozen(monkeypatch):
    """The Challenge's clock, frozen at Monday 9 March 2026, 10:00 Pacific (a 5×5 day)."""
    frozen = FrozenClock(pacific(2026, 3, 9, 10, 0))
    monkeypatch.setattr(clock, "now", frozen.now)
    return frozen


def play_turns(game_id: str, actor, turns: int) -> None:
    """The player's `turns` turns (CargoBot answers each, eagerly), through the services."""
    from games import services

    for _ in range(turns):
        game = services.get_game(game_id)
        if game.is_over:
            return
        state = services.state_of(game, viewer=0)
        services.apply_turn(game_id, actor=actor, ply=state["ply"], token=human_token(state))


def play_out(game_id: str, actor) -> None:
    play_turns(game_id, actor, 200)
