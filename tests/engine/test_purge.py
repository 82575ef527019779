"""rules.md 7: Corridor Purge on a corridor that is not locked."""

from __future__ import annotations

import pytest

from engine import EngineError
from tests.engine.support import board_of, field, game_at, pos, replay


def test_purging_a_column_empties_it() -> None:
    game = game_at(pos("...../B..../O..../x..../BO..."))
    game.play("Pa")
    assert board_of(game) == "...../...../...../...../.O..."


def test_purging_a_row_removes_it_and_everything_above_settles() -> None:
    game = game_at(pos("...../B..../O.B../x.O../BOB.."))
    game.play("P2")
    assert board_of(game) == "...../...../B..../O.B../BOB.."


def test_purging_an_empty_corridor_changes_nothing_but_spends_the_card() -> None:
    game = replay('[Size "5"]\nP5')
    assert board_of(game) == "...../...../...../...../....."
    assert field(game, 2) == "SLDR"


def test_the_locked_corridor_cannot_be_purged_the_others_can() -> None:
    game = game_at(pos("...../...../...../...../B....", lock="1", orange="-"))
    legal = game.legal()
    assert "P1" not in legal
    assert {"P2", "Pa", "Pe"} <= set(legal)
    with pytest.raises(EngineError):
        game.play("P1")


def test_purge_of_a_corridor_off_the_bay_is_an_error() -> None:
    game = replay('[Size "5"]\n')
    with pytest.raises(EngineError, match="corridor"):
        game.play("P6")
