"""rules.md 5: Station Rotation, right (clockwise) and left, then settling and unlocking."""

from __future__ import annotations

import pytest

from engine import EngineError
from tests.engine.support import board_of, field, game_at, pos, replay


def test_right_turns_the_old_right_wall_into_the_floor() -> None:
    # (x, y) -> (y, N-1-x): a1 -> a5, b1 -> a4, a2 -> b5; then everything settles
    game = replay('[Size "5"]\na a b S>')
    assert board_of(game) == "...../...../...../B..../BO..."


def test_left_turns_the_old_left_wall_into_the_floor() -> None:
    # (x, y) -> (N-1-y, x): a1 -> e1, b1 -> e2, a2 -> d1
    game = replay('[Size "5"]\na a b S<')
    assert board_of(game) == "...../...../...../....B/...OB"


def test_right_rotation_of_a_lone_cell_matches_the_formula() -> None:
    # e1 = (4, 0) -> (0, 0) = a1 (the old right wall is the floor)
    game = game_at(pos("...../...../...../...../....O"))
    game.play("S>")
    assert board_of(game) == "...../...../...../...../O...."
    game = game_at(pos("...../...../...../...../....O"))
    game.play("S<")  # (4, 0) -> (4, 4) = e5, then it falls to e1
    assert board_of(game) == "...../...../...../...../....O"


def test_rotation_keeps_the_order_of_a_turned_row() -> None:
    # row 1 "BOxB." turned right: a1..d1 go to a5..a2, so column a from the bottom
    # holds d1, c1, b1, a1 once settled
    game = game_at(pos("...../...../...../...../BOxB."))
    game.play("S>")
    assert board_of(game) == "...../B..../O..../x..../B...."
    game = game_at(pos("...../...../...../...../BOxB."))
    game.play("S<")
    assert board_of(game) == "...../....B/....x/....O/....B"


@pytest.mark.parametrize("token", ["S<", "S>"])
def test_rotation_releases_the_lock_and_spends_the_card(token: str) -> None:
    game = replay(f'[Size "5"]\nLb {token}')
    assert field(game, 4) == "-"
    assert field(game, 2) == "SPDR"  # Blue played Lb
    assert field(game, 3) == "LPDR"  # Orange played the rotation


def test_rotation_is_legal_whenever_the_card_is_held() -> None:
    game = game_at(pos("BBBB./BBBB./BBBB./BBBB./BBBB.", lock="e", blue="S", orange="-"))
    assert game.legal() == ["S<", "S>"]


def test_a_spent_rotation_cannot_be_played_again() -> None:
    game = replay('[Size "5"]\nS> a')
    with pytest.raises(EngineError, match="card"):
        game.play("S<")
