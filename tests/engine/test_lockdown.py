"""rules.md 6: Corridor Lockdown on any corridor; relocking releases; another moves it."""

from __future__ import annotations

import pytest

from engine import EngineError, Game
from tests.engine.support import field, game_at, pos, replay


@pytest.mark.parametrize("n", [5, 8])
def test_every_corridor_may_be_locked_even_an_empty_one(n: int) -> None:
    game = Game.new(n)
    locks = [t for t in game.legal() if t.startswith("L")]
    assert sorted(locks) == sorted("L" + c for c in "abcdefgh"[:n] + "12345678"[:n])


def test_locking_the_locked_corridor_releases_it() -> None:
    game = replay('[Size "5"]\nLc Lc')
    assert field(game, 4) == "-"
    assert "c" in game.legal()


def test_locking_another_corridor_moves_the_lock() -> None:
    game = replay('[Size "5"]\nLc L2')
    assert field(game, 4) == "2"
    assert "c" in game.legal()


def test_a_locked_corridor_takes_no_purge_and_no_drop() -> None:
    game = replay('[Size "5"]\nLc')
    assert "Pc" not in game.legal()
    assert "c" not in game.legal()
    with pytest.raises(EngineError, match="MagLocked"):
        game.play("Pc")


def test_the_lock_lasts_across_turns_until_a_rotation() -> None:
    game = replay('[Size "5"]\nLc a b d e')
    assert field(game, 4) == "c"
    game.play("S>")
    assert field(game, 4) == "-"


def test_lockdown_spends_the_card() -> None:
    game = replay('[Size "5"]\nLc')
    assert field(game, 2) == "SPDR"
    game.play("a")
    with pytest.raises(EngineError):
        game.play("Ld")


def test_a_lock_on_a_row_in_a_position_is_kept() -> None:
    game = game_at(pos("...../...../...../...../.....", lock="4"))
    assert field(game, 4) == "4"
