"""rules.md 12-14: Phase 2 unloading, the seven shapes and their values."""

from __future__ import annotations

import pytest

from engine import EngineError
from tests.engine.support import board_of, field, game_at, pos

# Each shape in one orientation on a 5x5 bay (cells of Blue cores), and its value.
SHAPES = {
    "O": ("...../...../...../BB.../BB...", "a1a2b1b2", 3),
    "T": ("...../...../...../.B.../BBB..", "a1b1b2c1", 4),
    "J": ("...../...../.B.../.B.../BB...", "a1b1b2b3", 4),
    "L": ("...../...../B..../B..../BB...", "a1a2a3b1", 4),
    "S": ("...../...../...../.BB../BBx..", "a1b1b2c2", 5),
    "Z": ("...../...../...../BB.../xBB..", "a2b1b2c1", 5),
    "I": ("...../...../...../...../BBBB.", "a1b1c1d1", 6),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_each_shape_unloads_for_its_value_and_leaves_empty_cans(shape: str) -> None:
    board, cells, value = SHAPES[shape]
    game = game_at(pos(board, orange="-"))
    assert game.unloads() == [(cells, shape)]
    game.play("e+" + cells)
    assert board_of(game) == board.replace("B", "x")[:-1] + "B"  # e1 is the new drop
    assert field(game, 7) == str(value + 2)  # the Gold chit's +2 too
    assert field(game, 5) == shape


def test_mirror_images_are_different_shapes() -> None:
    j = game_at(pos(SHAPES["J"][0])).unloads()
    lb = game_at(pos(SHAPES["L"][0])).unloads()
    assert [s for _, s in j] == ["J"] and [s for _, s in lb] == ["L"]
    s = game_at(pos(SHAPES["S"][0])).unloads()
    z = game_at(pos(SHAPES["Z"][0])).unloads()
    assert [x for _, x in s] == ["S"] and [x for _, x in z] == ["Z"]


def test_rotations_count_as_the_same_shape() -> None:
    # L turned a quarter left: a bar on row 1 with a foot up at its right end;
    # J turned a quarter right: a bar on row 1 with a foot up at its left end
    game = game_at(pos("...../...../...../..B../BBB.."))
    assert game.unloads() == [("a1b1c1c2", "L")]
    game = game_at(pos("...../...../...../B..../BBB.."))
    assert game.unloads() == [("a1a2b1c1", "J")]
    game = game_at(pos("...../B..../B..../B..../B...."))
    assert game.unloads() == [("a1a2a3a4", "I")]


def test_four_of_a_larger_group_may_be_chosen() -> None:
    game = game_at(pos("...../...../...../...../BBBBB"))
    assert game.unloads() == [("a1b1c1d1", "I"), ("b1c1d1e1", "I")]
    game.play("a+e1b1c1d1")  # any order; the drop rests on a1
    assert board_of(game) == "...../...../...../B..../Bxxxx"


def test_diagonals_do_not_connect() -> None:
    game = game_at(pos("...../...../..B../.BO../BOO.."))
    assert game.unloads() == []


def test_unload_is_after_phase_1_and_only_of_the_movers_cores() -> None:
    game = game_at(pos("...../...../...../...../BBB.."))
    assert game.unloads() == []
    game.play("d+a1b1c1d1")  # the drop completes the I
    assert board_of(game) == "...../...../...../...../xxxx."
    game = game_at(pos("...../...../...../...../OOOO.", side="b"))
    with pytest.raises(EngineError):
        game.play("e+a1b1c1d1")


@pytest.mark.parametrize("cells", ["a1b1c1", "a1b1c1c1", "a1b1c1e1", "a1a2b1c1", "a1b1c1d1e1"])
def test_malformed_unloads_are_rejected_and_change_nothing(cells: str) -> None:
    text = pos("...../...../...../...../BBBB.")
    game = game_at(text)
    with pytest.raises(EngineError):
        game.play("e+" + cells)
    assert str(game.position) == f"Position({text!r})"
    assert game.ply == 0


def test_an_unload_broken_by_the_phase_1_action_is_rejected() -> None:
    game = game_at(pos("...../...../...../...../BBBB."))
    with pytest.raises(EngineError):
        game.play("Pa+a1b1c1d1")


def test_the_same_shape_may_be_unloaded_again_for_its_value() -> None:
    game = game_at(pos("...../...../...../...../BBBB.", blue_shelf="I", blue_points=8))
    game.play("e+a1b1c1d1")
    assert field(game, 7) == "14"
    assert field(game, 5) == "I"
