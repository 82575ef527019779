"""Rules 36–55: the special attach, attach, upgrade, exchange, uncouple, sign, reorder,
extra space, refills and the bag."""

from __future__ import annotations

import pytest

from express import ExpressError, Game
from express import events as ev
from express.moves import play
from tests.express.support import from_bag, reparse, to_action

# The notation.md start: 0 Fb, 1 X3gww, 2 T1, 3 Fg, 4 T2, 5 T2, 6 Fn, 7 T1, 8 R, 9 Fw,
# 10 X2grr, 11 Fr, 12 X1gnr, 13 X4nbr; bag wnnnwgbng…; deck 10.08.18…
# Order 2, 3, 1: seat 2 moves first, from 10.


def game(plan2: str = "A3A2A1", picks: list[str] | None = None) -> Game:
    return to_action(picks or ["Ma", "Me", "En"],
                     {1: "A1A2A3", 2: plan2, 3: "A3A1A2"})


def test_the_special_attach_takes_the_leftmost_car_then_the_complex_refills() -> None:
    g = game("A2A3A1")
    events = g.play("A2:^.>>.s1")
    p = g.position
    assert p.train[1] == "g" and p.cars["X2"] == "rrw"
    kinds = [type(e) for e in events]
    assert kinds.index(ev.CarsAttached) < kinds.index(ev.Refilled) < kinds.index(ev.Moved)
    refill = next(e for e in events if isinstance(e, ev.Refilled))
    assert (refill.space, refill.cars, refill.bag) == (10, "w", 32)


def test_no_special_attach_with_a_full_train() -> None:
    g = game("A2A3A1")
    g.position.train[1] = from_bag(g.position, "b")
    assert not any("^" in t for t in g.legal())
    with pytest.raises(ExpressError, match="train is full"):
        g.play("A2:^.>>")


def test_attach_takes_cars_from_the_left_up_to_the_engines_capacity() -> None:
    g = game()
    assert {t for t in g.legal() if t.startswith("A3:>>>.a")} == {"A3:>>>.a1"}
    with pytest.raises(ExpressError, match="at most 1"):
        g.play("A3:>>>.a12")
    g.position.engine[1] = 2  # a C engine hauls 3
    assert {t for t in g.legal() if t.startswith("A3:>>>.a")} == {
        "A3:>>>.a1", "A3:>>>.a12", "A3:>>>.a123"}
    g.play("A3:>>>.a12")
    p = g.position
    assert p.train[1] == "nb" and p.cars["X4"] == "rwn"  # r slid left, two refills


def test_upgrade_needs_the_seats_own_complex() -> None:
    g = game()
    with pytest.raises(ExpressError, match="own complex X2"):
        g.play("A3:>>>.u")  # X4 is nobody's colour here


def test_the_exchange_puts_the_car_in_the_first_empty_spot() -> None:
    g = game()
    p = g.position
    p.train[1] = from_bag(p, "g")
    p.cars["X4"] = "nb"  # one car fewer than usual (rule 44's part-filled complex)
    p.bag += "r"
    g.play("A3:>>>.x")
    assert g.position.train[1] == "n" and g.position.cars["X4"] == "bg"


def test_the_exchange_needs_a_car_on_the_train() -> None:
    g = game()
    assert "A3:>>>.x" not in g.legal()
    with pytest.raises(ExpressError, match="car on the train"):
        g.play("A3:>>>.x")


def test_uncouple_takes_only_rear_cars_of_the_factorys_colour() -> None:
    g = game("A1A2A3")
    p = g.position
    p.engine[1] = 2
    p.train[1] = from_bag(p, "grr")
    assert {t for t in g.legal() if t.startswith("A1:>.d")} == {"A1:>.d3", "A1:>.d23"}
    with pytest.raises(ExpressError, match="rear cars"):
        g.play("A1:>.d2")
    with pytest.raises(ExpressError, match="do not all match"):
        g.play("A1:>.d123")
    g.play("A1:>.d23")
    assert g.position.train[1] == "g" and g.position.yard[1] == "rr"


def test_sign_keeps_one_of_two_and_puts_the_other_at_the_bottom() -> None:
    g = game("A2A3A1")
    events = g.play("A2:>>.s2")
    p = g.position
    assert p.open[1] == ["13", "08"] and p.deck[-1] == "10" and len(p.deck) == 14
    public = next(e for e in events if isinstance(e, ev.ContractSigned))
    private = next(e for e in events if isinstance(e, ev.ContractsDrawn))
    assert public.only is None and (public.choice, public.deck) == (2, 14)
    assert private.only == (2,) and private.drawn == ("10", "08")
    assert (private.kept, private.returned) == ("08", "10")
    assert not private.visible_to(1) and not private.visible_to(0)


def test_no_sign_with_two_open_contracts_or_an_empty_deck() -> None:
    g = game("A2A3A1")
    p = g.position
    p.open[1].append(p.deck.pop(0))
    assert not any(".s" in t for t in g.legal())
    p.open[1].pop()
    p.deck.clear()
    assert not any(".s" in t for t in g.legal())
    with pytest.raises(ExpressError, match="deck is empty"):
        g.play("A2:>>.s1")


def test_with_one_card_left_the_signer_keeps_it_or_puts_it_back() -> None:
    g = game("A2A3A1")
    p = g.position
    del p.deck[1:]
    signs = sorted({t for t in g.legal() if ".s" in t and "^" not in t and t.startswith("A2:>>")})
    assert signs == ["A2:>>.s0", "A2:>>.s1"]
    with pytest.raises(ExpressError, match="only one card"):
        g.play("A2:>>.s2")
    q = p.copy()
    play(q, "A2:>>.s0")
    assert q.deck == ["10"] and q.open[1] == ["13"]
    play(p, "A2:>>.s1")
    assert p.deck == [] and p.open[1] == ["13", "10"]


def test_reorder_lists_every_other_order_of_any_complex_with_two_cars() -> None:
    g = game("A1A2A3")
    orders = sorted(t.split(".", 1)[1] for t in g.legal() if t.startswith("A1:>.o"))
    assert orders == sorted(
        ["o1=wgw", "o1=wwg", "o10=rgr", "o10=rrg"]
        + [f"o12={o}" for o in ("grn", "ngr", "nrg", "rgn", "rng")]
        + [f"o13={o}" for o in ("brn", "bnr", "nrb", "rbn", "rnb")])
    with pytest.raises(ExpressError, match="present order"):
        g.play("A1:>.o13=nbr")
    with pytest.raises(ExpressError, match="holds nbr"):
        g.play("A1:>.o13=nbb")
    g.position.cars["X4"] = "n"
    g.position.bag += "br"
    with pytest.raises(ExpressError, match="at least 2 cars"):
        g.play("A1:>.o13=nb")


def test_the_extra_space_may_go_back_or_through_a_tunnel_but_never_onto_r() -> None:
    g = game("A1A2A3")
    extra = {t for t in g.legal() if t.startswith("A1:<.e")}
    assert extra == {"A1:<.e>"}  # from 9 the step < would enter R on 8
    g.play("A1:>.e<")
    assert g.position.loc[1] == 10  # back where it started
    p = g.position.copy()
    p.k, p.loc[2] = 1, 2  # seat 3 on T1
    assert any(t.endswith(".et") for t in Game(reparse(p)).legal())


def test_a_refill_from_an_empty_bag_sets_flag_e_and_may_start_the_last_round() -> None:
    g = game()
    p = g.position
    p.engine[1] = 2
    kept = p.bag[:1]
    p.bag = kept
    events = g.play("A3:>>>.a12")  # takes n b, refills from a one-car bag
    p = g.position
    assert p.cars["X4"] == "r" + kept and p.flag_e and not p.flag_l
    assert any(isinstance(e, ev.BagEmpty) for e in events)
    q = p.copy()
    q.cars.update(X1="", X2="", X3="r")  # 3 cars on complexes with 3 seats
    q.check_last_round()
    assert q.flag_l


def test_a_refill_that_takes_the_last_car_does_not_set_flag_e() -> None:
    g = game()
    p = g.position
    p.bag = p.bag[:1]
    g.play("A3:>>>.a1")
    assert g.position.bag == "" and not g.position.flag_e
