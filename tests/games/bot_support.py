"""Helpers for the CargoBot tests: a simple human policy, eager or recorded bot tasks."""

import pytest

from games import services
from games.botplay import bots
from games.models import Game
from tests.games.support import SIDES, Actor


def human_token(state: dict) -> str:
    """A quick human: the leftmost legal drop (else the first legal token), unloading the
    first AppCon offered."""
    legal = state["legal"]
    drops = [t for t in legal if len(t) == 1 and t.islower()]
    token = drops[0] if drops else legal[0]
    if token in state["options"]:
        token += "+" + state["options"][token]["unloads"][0][0]
    return token


def play_as_human(game_id: str, player) -> dict:
    """The human's turn in a game against CargoBot, through the service; the state after."""
    game = services.get_game(game_id)
    side = game.human_side
    state = services.state_of(game, viewer=SIDES.index(side))
    assert state["to_move"] == side, state
    services.apply_turn(game_id, actor=Actor.of_user(player), ply=state["ply"],
                        token=human_token(state))
    return services.state_of(services.get_game(game_id), viewer=SIDES.index(side))


@pytest.fixture
def eager():
    """Bot tasks run in-process (the embedded default), whatever REDIS_URL says."""
    from cargosite.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = before


@pytest.fixture
def lost_tasks(monkeypatch):
    """Bot tasks are recorded instead of sent (as if the broker lost them)."""
    sent = []
    monkeypatch.setattr(bots, "enqueue_bot_turn",
                        lambda game_id, ply, **options: sent.append((game_id, ply)))
    return sent


def bot_turns(game: Game) -> list:
    return list(game.turns.filter(seat__in=services.get_game(game.id).bot_seats).order_by("ply"))
