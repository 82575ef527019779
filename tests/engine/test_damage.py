"""rules.md 8, 9, 21: Cargo Damage, new (0.89 and later) and old (0.88)."""

from __future__ import annotations

import pytest

from engine import EngineError
from tests.engine.support import board_of, field, game_at, pos


@pytest.mark.parametrize("rules", ["0.89", "0.92"])
def test_new_damage_destroys_two_adjacent_modules_and_the_rest_settles(rules: str) -> None:
    # any module: an Empty Can and the mover's own core here
    game = game_at(pos("...../...../O..../x..../BO...", rules=rules))
    game.play("Da1a2")
    assert board_of(game) == "...../...../...../...../OO..."
    assert field(game, 2) == "SLPR"


@pytest.mark.parametrize("rules", ["0.89", "0.92"])
def test_new_damage_takes_side_by_side_cells_in_a_row(rules: str) -> None:
    game = game_at(pos("...../...../...../O.B../BxO..", rules=rules))
    game.play("Db1c1")
    assert board_of(game) == "...../...../...../O..../B.B.."


@pytest.mark.parametrize("cells", ["Da1c1", "Da1b2", "Da1a3", "Da1", "Da3a4", "Da1a1"])
def test_new_damage_needs_two_adjacent_occupied_cells(cells: str) -> None:
    game = game_at(pos("...../...../O..../x..../BOB.."))
    with pytest.raises(EngineError):
        game.play(cells)


def test_new_damage_accepts_its_cells_in_any_order() -> None:
    game = game_at(pos("...../...../...../...../BO..."))
    game.play("Db1a1")
    assert board_of(game) == "...../...../...../...../....."


def test_new_damage_may_not_touch_the_locked_corridor() -> None:
    game = game_at(pos("...../...../...../O..../BO...", lock="a"))
    assert not [t for t in game.legal() if t.startswith("D")]
    with pytest.raises(EngineError):
        game.play("Da1b1")
    game = game_at(pos("...../...../...../OO.../BO...", lock="1"))
    assert [t for t in game.legal() if t.startswith("D")] == ["Da2b2"]


def test_new_damage_is_legal_iff_a_pair_exists() -> None:
    game = game_at(pos("...../...../...../...../B.O.O", blue="D", orange="-"))
    assert [t for t in game.legal() if t.startswith("D")] == []
    # Blue has the drops anyway; with the bay otherwise stuck Blue must pass
    game = game_at(pos("BBBBB/BBBBB/BBBBB/BBBBB/BBBBB", blue="D", orange="D"))
    assert game.over


def test_old_damage_turns_one_or_two_opponent_cores_into_empty_cans() -> None:
    game = game_at(pos("...../...../O..../B..../OBO..", rules="0.88"))
    game.play("Da1c1")
    assert board_of(game) == "...../...../O..../B..../xBx.."
    game = game_at(pos("...../...../O..../B..../OBO..", rules="0.88"))
    game.play("Da3")
    assert board_of(game) == "...../...../x..../B..../OBO.."


def test_old_damage_lists_every_single_and_pair_of_opponent_cores() -> None:
    game = game_at(pos("...../...../O..../B..../OBO..", rules="0.88"))
    damage = [t for t in game.legal() if t.startswith("D")]
    assert damage == ["Da1", "Da1a3", "Da1c1", "Da3", "Da3c1", "Dc1"]


def test_old_damage_ignores_locks_and_takes_only_opponent_cores() -> None:
    game = game_at(pos("...../...../O..../B..../OBO..", lock="a", rules="0.88"))
    assert "Da1a3" in game.legal()
    for bad in ("Db1", "Da2", "Da5", "Da1b1"):
        with pytest.raises(EngineError):
            game.play(bad)
    game.play("Da3a1")  # any order
    assert board_of(game) == "...../...../x..../B..../xBO.."


def test_old_damage_is_legal_iff_the_opponent_has_a_core() -> None:
    game = game_at(pos("...../...../...../...../Bx...", rules="0.88"))
    assert not [t for t in game.legal() if t.startswith("D")]


@pytest.mark.parametrize("rules", ["0.88", "0.89", "0.92"])
def test_a_game_keeps_its_rules_version(rules: str) -> None:
    # rules.md 21: the version is part of the position and never changes
    game = game_at(pos("...../...../...../...../BO...", rules=rules))
    for token in ("c", "d", "S>", "e"):
        game.play(token)
    assert field(game, 10) == rules
    damage = [t for t in game.legal() if t.startswith("D")]
    single = [t for t in damage if len(t) == 3]
    assert bool(single) == (rules == "0.88")
