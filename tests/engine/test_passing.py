"""rules.md 16-17: passing, and when the shift ends."""

from __future__ import annotations

import pytest

from engine import EngineError
from tests.engine.support import field, game_at, pos

# Column e is locked and every other column is full: no drops for anybody.
STUCK = "BBBB./OOOO./BBBB./OOOO./BBBO."


def test_a_player_with_no_action_whose_opponent_has_one_must_pass() -> None:
    game = game_at(pos(STUCK, lock="e", blue="-", orange="L"))
    assert game.legal() == ["-"]
    assert not game.over
    game.play("-")
    assert field(game, 1) == "o" and field(game, 9) == "1"
    assert "Le" in game.legal()


def test_a_player_with_an_action_may_not_pass() -> None:
    game = game_at(pos(STUCK, lock="e", blue="L", orange="-"))
    assert "-" not in game.legal()
    with pytest.raises(EngineError, match="pass"):
        game.play("-")


def test_a_passing_player_may_still_unload() -> None:
    game = game_at(pos(STUCK, lock="e", blue="-", orange="L"))
    assert game.unloads()
    game.play("-+a3b3c3d3")
    assert field(game, 7) == "8"


def test_the_shift_ends_when_neither_player_has_an_action() -> None:
    game = game_at(pos(STUCK, lock="e", blue="-", orange="-"))
    assert game.over and game.legal() == []
    assert game.result() is not None


def test_the_shift_ends_after_the_turn_that_removes_the_last_action() -> None:
    # column e is open; Orange's last card locks it: neither side has a drop or a card
    game = game_at(pos(STUCK, lock="a", blue="-", orange="L", side="o"))
    assert not game.over
    game.play("Le")
    assert game.over and game.legal() == []
    # 0 - 14 each, no Gold, 7 Rust each: Orange takes the last tiebreak (0.92)
    assert game.result() == {"winner": "orange", "blue": -14, "orange": -14}


def test_the_shift_ends_when_the_bay_is_full_even_with_cards_left() -> None:
    game = game_at(pos("BBBB./OOOO./BBBB./OOOO./BBBO."))
    for token in ("e", "e", "e", "e"):
        game.play(token)
    assert not game.over
    game.play("e")
    assert game.over and game.legal() == []
    assert field(game, 1) == "o"  # the side changes after the last turn too
    with pytest.raises(EngineError):
        game.play("S>")


def test_a_full_bay_unload_on_the_last_turn_still_counts() -> None:
    game = game_at(pos("BBBB./OOOO./BBBB./OOOO./BBBB.", blue="-", orange="-"))
    game.play("e")
    game.play("e")
    game.play("e")
    game.play("e")
    game.play("e+a5b5c5d5")  # the last empty cell, then the unload
    assert game.over
    assert field(game, 7) == "8"
