"""CargoBot's adapter decides from the state's `position` alone: at every ply of whole
Cargo Connect games its turn is the engine's own for the game's position, and a state
where its seat is not to move is refused."""

from __future__ import annotations

import pytest
from cargo_client.cargobot import CargoBot
from cargo_client.engines import EngineError

from engine.bot import choose_turn
from engine.describe import describe
from engine.game import Game


@pytest.mark.parametrize("size", [5, 6])
def test_the_adapters_turn_is_the_engines_for_the_games_position(size):
    game = Game.new(size)
    bot = CargoBot("easy", 4)
    while not game.over:
        state = describe(game)
        seat = ("blue", "orange").index(state["to_move"])
        token = bot.decide(state, seat)
        assert token == choose_turn(game.position, "easy", 4)
        with pytest.raises(EngineError, match="is not to move"):
            bot.decide(state, 1 - seat)
        game.play(token)
    assert game.result() is not None


def test_a_state_without_a_position_is_refused():
    with pytest.raises(EngineError, match="cannot play this state"):
        CargoBot().decide({"to_move": "blue", "legal": ["a"]}, 0)
