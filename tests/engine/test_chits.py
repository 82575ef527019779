"""rules.md 15: the Gold chit (+2), the Steel chit (+0), and nothing for a repeat."""

from __future__ import annotations

from tests.engine.support import field, game_at, pos, replay

I_ROW = "...../...../...../...../BBBB."


def test_the_first_to_complete_a_shape_takes_its_gold_chit() -> None:
    game = game_at(pos(I_ROW))
    game.play("e+a1b1c1d1")
    assert (field(game, 5), field(game, 7)) == ("I", "8")


def test_the_second_takes_the_steel_chit_worth_nothing() -> None:
    game = game_at(pos(I_ROW, orange_shelf="I"))
    game.play("e+a1b1c1d1")
    assert (field(game, 5), field(game, 7)) == ("i", "6")


def test_a_steel_chit_is_also_taken_after_an_opponent_steel() -> None:
    game = game_at(pos(I_ROW, orange_shelf="i"))
    game.play("e+a1b1c1d1")
    assert (field(game, 5), field(game, 7)) == ("i", "6")


def test_a_shape_already_completed_changes_no_chit() -> None:
    game = game_at(pos(I_ROW, blue_shelf="i", orange_shelf="I", blue_points=6))
    game.play("e+a1b1c1d1")
    assert (field(game, 5), field(game, 7)) == ("i", "12")
    assert field(game, 6) == "I"


def test_gold_then_steel_in_one_game() -> None:
    # Blue unloads an I (Gold), then Orange unloads an I (Steel)
    game = replay('[Size "5"]\na e b e c e d+a1b1c1d1 e+e1e2e3e4')
    assert field(game, 5) == "I" and field(game, 6) == "i"
    assert field(game, 7) == "8" and field(game, 8) == "6"


def test_shelves_are_written_in_chit_order() -> None:
    game = game_at(pos(I_ROW, blue_shelf="OtJ"))
    game.play("e+a1b1c1d1")
    assert field(game, 5) == "OtJI"
