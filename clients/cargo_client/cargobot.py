"""CargoBot (the site's `engine/` package) as the client's engine for Cargo Connect.

Cargo Connect hides nothing: the state's `position` is the whole position in the game's
notation (engine/notation.py), which the engine reads back exactly, so CargoBot decides
from it as the site's own CargoBot seats do (`engine.bot.choose_turn`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cargo_client.engines import EngineError
from engine.bot import BOT_LEVELS, choose_turn
from engine.errors import EngineError as RulesError
from engine.notation import parse_position

SIDES = ("blue", "orange")  # seat 0 is Blue, seat 1 Orange


class CargoBot:
    """CargoBot at `level` (easy, medium or hard); `seed` is its tie-breaking seed."""

    game_type = "cargo-connect"

    def __init__(self, level: str = "easy", seed: int = 0) -> None:
        if level not in BOT_LEVELS:
            raise EngineError(f"CargoBot level {level!r}: {', '.join(BOT_LEVELS)}")
        self.level = level
        self.seed = seed

    def decide(self, state: Mapping[str, Any], seat: int) -> str:
        """The whole turn for `seat`, Phase 1 token then `+` and the cells it unloads."""
        if state.get("to_move") != SIDES[seat]:
            raise EngineError(f"seat {seat} ({SIDES[seat]}) is not to move: "
                              f"{state.get('to_move')!r} is")
        try:
            token = choose_turn(parse_position(str(state["position"])), self.level, self.seed)
        except (KeyError, RulesError) as e:
            raise EngineError(f"CargoBot cannot play this state: {e}") from None
        if token.partition("+")[0] not in state.get("legal", []):
            raise EngineError(f"CargoBot chose {token!r}, which the state's legal list "
                              f"does not hold")
        return token
