"""Rules 17–23: the round, character selection, planning, usable cards and lost turns."""

from __future__ import annotations

import pytest

from express import ExpressError, Game
from tests.express.support import SEED3, to_action


def test_picks_go_in_turn_order_from_the_stationmaster_and_are_compulsory() -> None:
    game = Game.new(3, SEED3)  # stationmaster 2: order 2, 3, 1
    assert game.to_move() == [2]
    assert game.legal() == ["Dr", "En", "Lo", "Ma", "Me"]
    game.play("Lo")
    assert game.to_move() == [3] and game.legal() == ["Dr", "En", "Ma", "Me"]
    with pytest.raises(ExpressError, match="already been taken"):
        game.play("Lo")
    game.play("Dr")
    game.play("En")
    p = game.position
    assert p.phase_token == "p" and p.chars == ["En", "Lo", "Dr"]
    # With 3 seats two characters sit out the round (rule 19).
    assert p.held_characters() == {"En", "Lo", "Dr"}


def test_planning_is_simultaneous_and_any_three_different_cards_may_go_in() -> None:
    game = Game.new(3, SEED3)
    for c in ("Lo", "Dr", "En"):
        game.play(c)
    assert game.to_move() == [1, 2, 3] and game.legal() == []
    game.commit(3, "C6B4D")  # nothing is checked against the engine when committing
    assert game.to_move() == [1, 2]
    with pytest.raises(ExpressError, match="already committed"):
        game.commit(3, "A1A2A3")
    with pytest.raises(ExpressError, match="3 different"):
        game.commit(1, "A1A1A2")
    with pytest.raises(ExpressError, match="exactly 3"):
        game.commit(1, "A1A2")
    game.commit(1, "A1A2A3")
    game.commit(2, "A3A2A1")
    assert game.position.phase_token == "a0" and game.to_move() == [2]


def test_an_unusable_card_loses_the_turn_and_goes_back_to_the_hand() -> None:
    game = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "B3A1A2", 3: "A1A2A3"})
    assert game.legal() == ["B3:~"]
    with pytest.raises(ExpressError, match="turn is lost"):
        game.play("B3:>>>")
    events = game.play("B3:~")
    assert [e.kind for e in events][:2] == ["revealed", "turn-lost"]
    assert game.position.plans[1] == ["A1", "A2"]
    with pytest.raises(ExpressError, match="is usable"):
        game.play("A1:~")  # seat 3's A1 is usable


def _to_own_complex(game: Game, upgrade: bool) -> None:
    game.play("A2:>>.e>")  # seat 2: 10 -> 12, extra step to 13
    game.play(game.legal()[0])
    game.play(game.legal()[0])
    game.play("A3:<<<.u" if upgrade else "A3:<<<")  # back to 10, its own complex X2
    game.play(game.legal()[0])
    game.play(game.legal()[0])


def test_an_upgrade_makes_a_higher_card_usable_in_the_same_round() -> None:
    plans = {1: "A1A2A3", 2: "A2A3B3", 3: "A1A2A3"}
    game = to_action(["Lo", "Dr", "En"], plans)
    _to_own_complex(game, upgrade=True)
    assert game.position.engine[1] == 1
    assert game.to_move() == [2] and game.legal() != ["B3:~"]
    game = to_action(["Lo", "Dr", "En"], plans)
    _to_own_complex(game, upgrade=False)
    assert game.legal() == ["B3:~"]


def test_cards_come_back_every_round() -> None:
    game = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A2A3A1", 3: "A3A1A2"})
    for _ in range(9):
        game.play(game.legal()[0])
    p = game.position
    assert p.phase_token == "r" and p.plans == [[], [], []] and p.chars == [None] * 3
    assert p.sm == 3  # the stationmaster card passed to the left (rule 58)
    game.play(game.legal()[0])
    assert game.position.phase_token == "c0" and game.position.round == 2
    assert game.to_move() == [3]
