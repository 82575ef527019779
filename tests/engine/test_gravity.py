"""rules.md 1-3: the bay, what a cell holds, and gravity (nothing ever floats)."""

from __future__ import annotations

import pytest

from engine import EngineError, Game, parse_position
from tests.engine.support import board_of, empty_board, game_at, pos, replay


@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_it_has_n_columns_lettered_from_the_left_and_rows_from_the_bottom(n: int) -> None:
    # rules.md 1
    game = Game.new(n)
    drops = [t for t in game.legal() if len(t) == 1]
    assert drops == list("abcdefgh"[:n])
    game.play("a")
    assert board_of(game).split("/")[-1] == "B" + "." * (n - 1)
    assert len(board_of(game).split("/")) == n


@pytest.mark.parametrize("n", [4, 9])
def test_it_rejects_bays_outside_5_to_8(n: int) -> None:
    with pytest.raises(EngineError):
        Game.new(n)
    with pytest.raises(EngineError):
        replay(f'[Size "{n}"]\n')


def test_a_cell_holds_nothing_a_blue_core_an_orange_core_or_an_empty_can() -> None:
    # rules.md 2
    text = pos("...../...../...../...../BOx..")
    assert parse_position(text)
    with pytest.raises(EngineError):
        parse_position(pos("...../...../...../...../BOX.."))


def test_a_floating_module_is_rejected() -> None:
    # rules.md 3, notation.md fine point 7
    with pytest.raises(EngineError, match="float"):
        parse_position(pos("...../...../...../B..../....."))


def test_purging_a_row_lets_the_columns_settle_in_order() -> None:
    # rules.md 3: each column is compacted downward, keeping its order
    game = game_at(pos("...../B..../x..../O..../B...."))
    game.play("P2")
    assert board_of(game) == "...../...../B..../x..../B...."


def test_a_maglock_never_holds_a_module_in_place() -> None:
    # rules.md 3: modules in a locked row still fall when what is below them goes
    game = game_at(pos("...../...../...../OB.../BO...", lock="2"))
    game.play("Da1b1")
    assert board_of(game) == "...../...../...../...../OB..."
    assert game.legal()  # the lock stays on row 2
    assert " 2 " in str(game.position)


def test_a_module_resting_in_a_locked_row_falls_when_the_row_below_is_purged() -> None:
    game = game_at(pos("...../...../B..../O..../B....", lock="3"))
    game.play("P1")
    assert board_of(game) == "...../...../...../B..../O...."


def test_a_locked_column_settles_too() -> None:
    game = game_at(pos("...../...../B..../O..../B....", lock="a"))
    game.play("P1")
    assert board_of(game) == "...../...../...../B..../O...."


def test_the_empty_bay_of_every_size() -> None:
    for n in (5, 6, 7, 8):
        assert board_of(Game.new(n)) == empty_board(n)
