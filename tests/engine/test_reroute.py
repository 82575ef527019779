"""rules.md 10: Re-Routing Order takes one opponent core."""

from __future__ import annotations

import pytest

from engine import EngineError
from tests.engine.support import board_of, field, game_at, pos


def test_an_opponent_core_becomes_the_movers() -> None:
    game = game_at(pos("...../...../...../O..../BO..."))
    game.play("Ra2")
    assert board_of(game) == "...../...../...../B..../BO..."
    assert field(game, 2) == "SLPD"


def test_locks_do_not_matter() -> None:
    game = game_at(pos("...../...../...../O..../BO...", lock="a"))
    game.play("Ra2")
    assert board_of(game) == "...../...../...../B..../BO..."


@pytest.mark.parametrize("cell", ["a1", "c1", "a3", "f1"])
def test_only_an_opponent_core_may_be_rerouted(cell: str) -> None:
    game = game_at(pos("...../...../...../O..../Bx..."))
    with pytest.raises(EngineError):
        game.play("R" + cell)


def test_it_is_legal_iff_the_opponent_has_a_core() -> None:
    game = game_at(pos("...../...../...../...../Bx...", side="b"))
    assert not [t for t in game.legal() if t.startswith("R")]
    game = game_at(pos("...../...../...../...../Bx...", side="o"))
    assert [t for t in game.legal() if t.startswith("R")] == ["Ra1"]


def test_a_rerouted_core_counts_toward_an_appcon_at_once() -> None:
    game = game_at(pos("...../...../...../...../BBBO."))
    game.play("Rd1+a1b1c1d1")
    assert board_of(game) == "...../...../...../...../xxxx."
    assert field(game, 7) == "8"  # I: 6 + Gold 2
