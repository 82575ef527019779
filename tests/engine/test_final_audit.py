"""rules.md 18-20 and rulebook section 8: the Final Audit, tiebreaks and resigning."""

from __future__ import annotations

import pytest

from engine import Game, parse_position
from tests.engine.support import game_at, pos

FULL = "xxxxx/xxxxx/xxxxx/xxxxx/xxxxx"


def audit(blue_shelf: str, orange_shelf: str, bp: int, op: int, rules: str = "0.92"):
    p = parse_position(pos(FULL, blue_shelf=blue_shelf, orange_shelf=orange_shelf,
                           blue_points=bp, orange_points=op, rules=rules))
    return p.audit()


def result(blue_shelf: str, orange_shelf: str, bp: int, op: int, rules: str = "0.92"):
    game = game_at(pos(FULL, blue_shelf=blue_shelf, orange_shelf=orange_shelf,
                       blue_points=bp, orange_points=op, rules=rules))
    assert game.over
    return game.result()


def test_each_shape_never_completed_costs_two() -> None:
    a = audit("-", "OTJLSZI", 10, 10)
    assert (a.blue.rust, a.blue.penalty, a.blue.final) == (7, 14, -4)
    assert (a.orange.rust, a.orange.penalty, a.orange.final) == (0, 0, 10)
    a = audit("OtJ", "oTL", 10, 10)  # steel chits clear the rust too
    assert (a.blue.rust, a.orange.rust) == (4, 4)


@pytest.mark.parametrize("rules", ["0.88", "0.89", "0.92"])
def test_the_higher_final_score_wins(rules: str) -> None:
    assert result("-", "-", 5, 4, rules) == {"winner": "blue", "blue": -9, "orange": -10}
    assert result("-", "-", 4, 5, rules) == {"winner": "orange", "blue": -10, "orange": -9}


# The rulebook's example: Blue (P1) 21 points, never completed L; Orange (P2) 19 points,
# completed all seven. Both end on 19. The shelves below vary the Gold chits.
@pytest.mark.parametrize("rules", ["0.88", "0.89", "0.92"])
def test_the_example_more_gold_wins(rules: str) -> None:
    a = audit("OTJSZi", "otjLszI", 21, 19, rules)  # Blue 5 Gold, Orange 2
    assert (a.blue.final, a.orange.final) == (19, 19)
    assert (a.winner, a.decided_by) == ("blue", "gold")
    assert result("OTJSZi", "otjLszI", 21, 19, rules)["winner"] == "blue"
    a = audit("otjszi", "OTJLSZI", 21, 19, rules)  # Blue 0 Gold, Orange 7
    assert (a.winner, a.decided_by) == ("orange", "gold")


def test_the_example_equal_gold_then_fewer_rust_wins_in_0_92() -> None:
    # 3 Gold each; Blue 1 Rust (L), Orange none: Orange wins
    a = audit("OTJszi", "otjLSZi", 21, 19)
    assert (a.blue.final, a.orange.final, a.blue.gold, a.orange.gold) == (19, 19, 3, 3)
    assert (a.winner, a.decided_by) == ("orange", "rust")
    assert result("OTJszi", "otjLSZi", 21, 19) == {"winner": "orange", "blue": 19,
                                                  "orange": 19}
    # and the other way round: Blue has fewer Rust chits (0 against 1)
    a = audit("OTJlszi", "otjLSZ", 19, 21)
    assert (a.blue.final, a.orange.final, a.blue.gold, a.orange.gold) == (19, 19, 3, 3)
    assert (a.winner, a.decided_by) == ("blue", "rust")


def test_the_example_all_equal_orange_wins_in_0_92() -> None:
    # both 21 points and both missing L: 19-19, equal Gold, equal Rust
    a = audit("OTJszi", "otjSZI", 21, 21)
    assert (a.blue.final, a.orange.final) == (19, 19)
    assert (a.blue.gold, a.orange.gold, a.blue.rust, a.orange.rust) == (3, 3, 1, 1)
    assert (a.winner, a.decided_by) == ("orange", "orange")
    assert result("OTJszi", "otjSZI", 21, 21)["winner"] == "orange"


@pytest.mark.parametrize("rules", ["0.88", "0.89"])
def test_before_0_92_equal_score_and_gold_is_a_draw(rules: str) -> None:
    # the example with equal Gold: Rust is no tiebreak before 0.92
    a = audit("OTJszi", "otjLSZi", 21, 19, rules)
    assert (a.blue.final, a.orange.final) == (19, 19)
    assert (a.winner, a.decided_by) == (None, "draw")
    assert result("OTJszi", "otjLSZi", 21, 19, rules) == {"winner": None, "blue": 19,
                                                          "orange": 19}
    assert result("-", "-", 0, 0, rules)["winner"] is None


def test_the_first_tiebreak_is_gold_before_rust() -> None:
    # Blue: more Gold but more Rust; gold decides
    a = audit("OTJ", "otjLSZi", 16, 10)
    assert (a.blue.final, a.orange.final) == (8, 10)
    a = audit("OTJ", "otjlszi", 18, 10)
    assert (a.blue.final, a.orange.final, a.blue.gold, a.orange.gold) == (10, 10, 3, 0)
    assert (a.winner, a.decided_by) == ("blue", "gold")


@pytest.mark.parametrize("side", ["b", "o"])
def test_resigning_hands_the_win_to_the_other_side_with_audited_scores(side: str) -> None:
    # rules.md 20: even a player far ahead may resign
    game = game_at(pos("...../...../...../...../BO...", side=side, blue_shelf="OT",
                       blue_points=30, orange_points=2))
    events = game.resign()
    assert game.over and game.legal() == []
    winner = "orange" if side == "b" else "blue"
    assert game.result() == {"winner": winner, "blue": 30 - 10, "orange": 2 - 14}
    assert events[-1]["type"] == "over" and events[-1]["resigned"] == (
        "blue" if side == "b" else "orange")


def test_the_game_result_is_none_while_it_goes_on() -> None:
    game = Game.new(5)
    assert game.result() is None and not game.over
