"""rules.md 4: dropping a module, and the MagLock on columns and rows."""

from __future__ import annotations

import pytest

from engine import EngineError
from tests.engine.support import board_of, game_at, pos, replay


def test_a_module_falls_to_the_lowest_empty_cell() -> None:
    game = replay('[Size "5"]\na a b')
    assert board_of(game) == "...../...../...../O..../BB..."


def test_a_full_column_takes_no_drop() -> None:
    game = replay('[Size "5"]\na a a a a')
    assert "a" not in game.legal()
    with pytest.raises(EngineError, match="full"):
        game.play("a")


def test_a_locked_column_takes_no_drop() -> None:
    game = replay('[Size "5"]\nLc')
    assert "c" not in game.legal()
    with pytest.raises(EngineError):
        game.play("c")


def test_no_module_may_come_to_rest_in_a_locked_row() -> None:
    # a1 full, lock row 2: column a would rest in row 2 (illegal); b rests in row 1 (fine)
    game = game_at(pos("...../...../...../...../B....", lock="2"))
    assert "a" not in game.legal()
    assert "b" in game.legal()
    with pytest.raises(EngineError):
        game.play("a")


def test_a_module_may_fall_through_a_locked_row() -> None:
    # rules.md 4: lock row 3 on an empty bay; a drop falls through it to row 1
    game = replay('[Size "5"]\nL3 a')
    assert board_of(game) == "...../...../...../...../O...."


def test_a_module_may_rest_above_a_locked_row() -> None:
    game = game_at(pos("...../...../B..../B..../B....", lock="2"))
    game.play("a")
    assert board_of(game) == "...../B..../B..../B..../B...."


def test_a_column_off_the_bay_is_an_error() -> None:
    game = replay('[Size "5"]\n')
    with pytest.raises(EngineError, match="column f"):
        game.play("f")
