"""The Daily Challenge's one door into live play: it makes, resigns and voids its games
only through the games app's public functions (`games.services`), here and nowhere else
in `puzzles` (tests/platform/test_boundaries.py holds that exception to this one module).
"""

from __future__ import annotations

from typing import Any

from games import services
from games.actors import Actor
from games.kinds.cargo_connect import CARGO_CONNECT
from games.models import Game

GAME_TYPE = CARGO_CONNECT.key  # the Daily Challenge is a Cargo Connect game
PLAYER_SEAT = 0  # the player is Blue, who moves first


def create(actor: Actor, level: str, size: int, seed: int) -> Game:
    """An empty bay of `size`, the current rules, the player Blue against CargoBot at
    `level`, whose choices come from the day's seed."""
    return services.create_game(game_type=GAME_TYPE, seats=[actor, Actor.bot(level)],
                                options={"size": size}, mode=Game.Mode.DAILY, rated=False,
                                bot_seed=seed)


def resign_for_day(game_id: str) -> dict[str, Any]:
    """The end-of-day resign: a loss scored by the Final Audit now. Raises GameError
    (`game_over`) if the game already ended, so it applies once."""
    return services.resign_seat(game_id, PLAYER_SEAT, Game.Termination.DAY_ENDED)


def resign(game_id: str, actor: Actor) -> dict[str, Any]:
    return services.resign(game_id, actor=actor)


def void(game_id: str, reason: str) -> dict[str, Any]:
    return services.void_game(game_id, reason)
