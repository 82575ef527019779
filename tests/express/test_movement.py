"""Rules 27–35: paths, direction, tunnels, the refit piece, the D card, canonical paths."""

from __future__ import annotations

import pytest

from express import ExpressError, Game
from express.movement import movements, walk_path
from express.moves import play
from tests.express.support import to_action

# The notation.md start: 0 Fb, 1 X3, 2 T1, 3 Fg, 4 T2, 5 T2, 6 Fn, 7 T1, 8 R, 9 Fw,
# 10 X2, 11 Fr, 12 X1, 13 X4. Order 2, 3, 1; seat 2 moves first, from 10.


def game(plans: dict[int, str] | None = None, picks: list[str] | None = None) -> Game:
    return to_action(picks or ["Lo", "En", "Ma"],
                     plans or {1: "A1A2A3", 2: "A3A2A1", 3: "A3A1A2"})


def ends(g: Game, seat: int, card: str) -> dict[tuple[int, bool], str]:
    return {(e, d): path for e, path, d in movements(g.position, seat, card)}


def test_a_move_is_exactly_the_cards_number_in_one_direction() -> None:
    g = game()
    assert ends(g, 3, "A3") == {(12, False): "<<<", (4, False): ">>>", (6, False): ">t<"}
    assert ends(g, 3, "A2") == {(13, False): "<<", (3, False): ">>", (7, False): ">t"}
    p = g.position
    assert walk_path(p, 3, "><") == "step 2 turns round without a tunnel step"


def test_a_tunnel_step_lets_the_train_turn_round() -> None:
    g = game()
    # 1 -> 2 (T1) -> tunnel -> 7 (T1) -> back the other way to 6.
    assert walk_path(g.position, 3, ">t<") == (6, [2, 7, 6])
    assert "step 3 enters the refit piece" in str(walk_path(g.position, 3, ">t>"))


def test_a_tunnel_may_be_used_from_the_starting_space_and_crossed_without_use() -> None:
    g = game()
    p = g.position
    p.loc[2] = 2  # seat 3 on T1
    assert walk_path(p, 3, "t") == (7, [7])
    assert walk_path(p, 3, ">>>") == (5, [3, 4, 5])  # crosses T2 on 4 without using it


def test_no_space_twice_and_never_back_to_the_start() -> None:
    p = game().position
    p.loc[2] = 4  # seat 3 on T2 (its twin is on 5)
    assert "second time" in str(walk_path(p, 3, "t<"))  # 4 -> 5 -> 4
    assert "second time" in str(walk_path(p, 3, "tt"))


def test_the_refit_piece_blocks_and_the_mechanic_only_passes_it() -> None:
    g = game(picks=["Me", "Dr", "En"])  # seat 2 holds the Mechanic
    p = g.position
    p.loc[1] = p.loc[2] = 9  # seats 2 and 3 next to R (space 8)
    assert "refit" in str(walk_path(p, 3, "<<"))
    assert walk_path(p, 2, "<<") == (7, [8, 7])
    assert "not end on it" in str(walk_path(p, 2, "<"))


def test_the_d_card_moves_one_or_two_and_one_path_is_written_for_each_end() -> None:
    g = game({1: "A1A2A3", 2: "DA2A1", 3: "A3A1A2"})
    p = g.position
    p.engine[1] = 3  # seat 2 has a D engine
    legal = g.legal()
    heads = sorted({t.split(".")[0] for t in legal if "^" not in t})
    assert heads == ["D:<", "D:>", "D:>>"]  # 10 -> 9, 11, 12 (8 is the refit piece)
    q = p.copy()
    play(q, "D:>>.e<")
    assert q.loc[1] == 11  # 10 -> 12, then one back


def test_the_canonical_path_is_the_first_in_string_order_and_others_are_accepted() -> None:
    g = game({1: "A1A2A3", 2: "A1A2A3", 3: "A2A1A3"}, picks=["Lo", "Dr", "En"])
    p = g.position
    p.loc[1] = 1  # seat 2 to move from space 1 with an A... four steps: use C4
    p.plans[1] = ["C4", "A2", "A3"]
    p.engine[1] = 2
    got = ends(g, 2, "C4")
    assert got[(5, False)] == ">>>>"  # also >>>t and >t<< reach 5
    a, b = p.copy(), p.copy()
    play(a, "C4:>t<<")
    play(b, "C4:>>>>")
    assert a == b
    assert not any(t.startswith("C4:>t<<") for t in g.legal())


def test_the_driver_adds_one_step_once_a_round() -> None:
    g = game({1: "A1A2A3", 2: "A1A2A3", 3: "A3A1A2"}, picks=["Dr", "Lo", "En"])
    p = g.position
    assert ends(g, 2, "A1") == {(9, False): "<", (11, False): ">", (12, True): ">>*"}
    with pytest.raises(ExpressError, match="moves 1 spaces"):
        g.play("A1:>>")
    g.play("A1:>>*")
    p = g.position
    assert p.driver_used and p.loc[1] == 12
    assert "Dr*" in repr(p)
    g.play(g.legal()[0])
    g.play(g.legal()[0])
    assert not any("*" in t for t in g.legal())  # used up for this round


def test_the_driver_step_obeys_the_path_rules() -> None:
    g = game({1: "A1A2A3", 2: "A1A2A3", 3: "A3A1A2"}, picks=["Dr", "Lo", "En"])
    p = g.position
    p.loc[1] = 9  # R on 8: the Driver step cannot go through it either
    assert ends(g, 2, "A1") == {(10, False): ">", (11, True): ">>*"}
