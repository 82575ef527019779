"""Rules 25, 47–52: signing, the two-contract limit, fulfilling and its timing."""

from __future__ import annotations

import pytest

from express import ExpressError, Game
from express.moves import play
from tests.express.support import from_bag, to_action

# Order 2, 3, 1: seat 2 moves first from 10 and holds contract 13 (ggnn); the deck's
# top is 10 (rbw) then 08 (gnw).


def game(pick2: str = "Lo", yard: str = "") -> Game:
    g = to_action([pick2, "En", "Me"] if pick2 != "En" else ["En", "Lo", "Me"],
                  {1: "A1A2A3", 2: "A2A3A1", 3: "A3A1A2"})
    p = g.position
    p.yard[1] = from_bag(p, yard)
    return g


def test_a_contract_is_fulfilled_at_the_end_of_the_turn_with_yard_cars() -> None:
    g = game(yard="gnngw")
    legal = g.legal()
    assert "A2:>>.f13" in legal and "A2:>>.e<.f13" in legal
    g.play("A2:>>.e<.f13")
    p = g.position
    assert p.open[1] == [] and p.done[1] == [("13", "ggnn")] and p.yard[1] == "w"


def test_fulfilling_needs_the_cars_and_the_contract() -> None:
    g = game(yard="gnw")
    assert not any(".f13" in t for t in g.legal())
    assert "A2:>>.s2.f08" in g.legal()  # 08 (gnw), signed now, could be fulfilled
    with pytest.raises(ExpressError, match="does not hold"):
        g.play("A2:>>.f13")
    with pytest.raises(ExpressError, match="no open contract 06"):
        g.play("A2:>>.f06")
    with pytest.raises(ExpressError, match="written f13"):
        g.play("A2:>>.f13=ggnn")


def test_fulfils_are_written_sorted_by_id() -> None:
    g = game(yard="ggnnrr")
    p = g.position
    p.open[1].append(p.deck.pop(p.deck.index("01")))  # 01 is rr
    assert "A2:>>.f01.f13" in g.legal()
    with pytest.raises(ExpressError, match="sorted"):
        g.play("A2:>>.f13.f01")


def test_a_fulfil_before_the_sign_frees_a_slot_for_it() -> None:
    g = game(yard="ggnn")
    p = g.position
    p.open[1].append(p.deck.pop(p.deck.index("05")))  # two open: 13 and 05
    signs = {t for t in g.legal() if t.startswith("A2:>>.") and ".s" in t}
    assert signs == {"A2:>>.f13.s1", "A2:>>.f13.s2"}
    with pytest.raises(ExpressError, match="already holds 2"):
        g.play("A2:>>.s1")


def test_the_contract_just_signed_is_fulfilled_only_at_the_end() -> None:
    g = game(yard="rbwggnn")
    legal = set(g.legal())
    assert {"A2:>>.s1.f10", "A2:>>.f13.s1.f10", "A2:>>.f13.s2"} <= legal
    assert "A2:>>.s1.f13" not in legal
    with pytest.raises(ExpressError, match="right before it"):
        g.play("A2:>>.s1.f13")
    p = g.position.copy()
    play(p, "A2:>>.f13.s1.f10")
    assert [c for c, _ in p.done[1]] == ["13", "10"] and p.open[1] == []


def test_a_lost_turn_fulfils_nothing() -> None:
    g = to_action(["Lo", "En", "Me"], {1: "A1A2A3", 2: "C4A3A1", 3: "A3A1A2"})
    p = g.position
    p.yard[1] = from_bag(p, "ggnn")
    assert g.legal() == ["C4:~"]
    with pytest.raises(ExpressError):
        g.play("C4:~.f13")
