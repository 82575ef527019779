"""Rules 19–20 and RB §7: the Logistician, Engineer, Mechanic, Driver and Manager."""

from __future__ import annotations

import pytest

from express import ExpressError, Game
from tests.express.support import from_bag, to_action

# Order 2, 3, 1: the first pick goes to seat 2, which moves first, from 10 (X2grr).


def game(pick2: str, plan2: str = "A3A2A1", rules: str = "x0.2") -> Game:
    others = [c for c in ("Lo", "En", "Ma", "Me") if c != pick2][:2]
    return to_action([pick2, *others], {1: "A1A2A3", 2: plan2, 3: "A3A1A2"}, rules=rules)


def attaches(g: Game, head: str) -> set[str]:
    return {t[len(head) + 1:] for t in g.legal() if t.startswith(head + ".a")}


def test_the_logistician_takes_any_cars_in_any_order() -> None:
    g = game("Lo")
    g.position.engine[1] = 2  # capacity 3
    got = attaches(g, "A3:>>>")
    assert len(got) == 3 + 6 + 6 and {"a31", "a2", "a321", "a123"} <= got
    g.play("A3:>>>.a31")
    p = g.position
    assert p.train[1] == "rn" and p.cars["X4"] == "bwn"  # b slid left, then the bag


def test_without_the_logistician_only_leftmost_runs() -> None:
    g = game("En")
    g.position.engine[1] = 2
    assert attaches(g, "A3:>>>") == {"a1", "a12", "a123"}


def test_the_special_attach_takes_the_leftmost_car_even_with_the_logistician() -> None:
    g = game("Lo", "A2A3A1")
    g.play("A2:^.>>")
    assert g.position.train[1] == "g"


def test_x01_the_engineer_uncouples_any_cars_of_any_colour_at_any_factory() -> None:
    g = game("En", "A1A2A3", rules="x0.1")
    p = g.position
    p.engine[1] = 2
    p.train[1] = from_bag(p, "gbr")  # A1:> ends on 11, Fr
    got = {t[5:] for t in g.legal() if t.startswith("A1:>.d")}
    assert got == {"d1", "d2", "d3", "d12", "d13", "d23", "d123"}
    g.play("A1:>.d13")
    assert g.position.train[1] == "b" and g.position.yard[1] == "rg"
    with pytest.raises(ExpressError, match="factory"):
        game("En", "A3A2A1", rules="x0.1").play("A3:>>>.d1")


def engineer_at_fr(train: str, rules: str) -> Game:
    g = game("En", "A1A2A3", rules=rules)
    p = g.position
    p.engine[1] = 3
    p.train[1] = from_bag(p, train)  # A1:> ends on 11, Fr
    return g


def test_x02_the_engineer_uncouples_only_cars_of_the_factorys_colour_anywhere() -> None:
    g = engineer_at_fr("rbrg", "x0.2")
    got = {t[5:] for t in g.legal() if t.startswith("A1:>.d")}
    assert got == {"d1", "d3", "d13"}  # the rear car (g) need not match
    for token in ("A1:>.d2", "A1:>.d4", "A1:>.d12", "A1:>.d34", "A1:>.d1234"):
        before = g.position.copy()
        with pytest.raises(ExpressError, match="do not all match factory Fr"):
            g.play(token)
        assert g.position == before  # a refused decision changes nothing
    g.play("A1:>.d13")
    assert g.position.train[1] == "bg" and g.position.yard[1] == "rr"


def test_x02_the_engineer_with_no_car_of_the_colour_uncouples_nothing() -> None:
    g = engineer_at_fr("gbn", "x0.2")
    assert not any(t.startswith("A1:>.d") for t in g.legal())
    with pytest.raises(ExpressError, match="factory"):
        g.play("A1:>.d1")


@pytest.mark.parametrize("token, rules, ok", [
    ("A1:>.d2", "x0.1", True), ("A1:>.d2", "x0.2", False),
    ("A1:>.d124", "x0.1", True), ("A1:>.d124", "x0.2", False),
    ("A1:>.d13", "x0.1", True), ("A1:>.d13", "x0.2", True),
])
def test_each_version_keeps_its_own_rule_46(token: str, rules: str, ok: bool) -> None:
    g = engineer_at_fr("rbrg", rules)
    assert (token in g.legal()) is ok
    if ok:
        g.play(token)
        assert g.position.rules == rules
    else:
        with pytest.raises(ExpressError):
            g.play(token)


def test_without_the_engineer_both_versions_uncouple_the_rear_run_only() -> None:
    for rules in ("x0.1", "x0.2"):
        g = game("Lo", "A1A2A3", rules=rules)
        p = g.position
        p.engine[1] = 3
        p.train[1] = from_bag(p, "rbrr")
        got = {t[5:] for t in g.legal() if t.startswith("A1:>.d")}
        assert got == {"d4", "d34"}, rules


def test_the_mechanic_crosses_the_refit_piece() -> None:
    g = game("Me")
    assert "A3:<<<" in g.legal()  # 10 -> 9 -> 8 (R) -> 7
    g = game("Lo")
    assert not any(t.startswith("A3:<") for t in g.legal())


def test_the_manager_may_place_one_other_car_per_contract() -> None:
    g = game("Ma")
    p = g.position
    p.yard[1] = from_bag(p, "bggn")  # contract 13 is ggnn
    fulfils = {t.split(".")[-1] for t in g.legal() if t.startswith("A3:>>>.f") and ".s" not in t}
    assert fulfils == {"f13=bggn"}
    g.play("A3:>>>.f13=bggn")
    assert g.position.done[1] == [("13", "bggn")] and g.position.yard[1] == ""


def test_only_the_manager_substitutes_and_only_one_car() -> None:
    g = game("Lo")
    p = g.position
    p.yard[1] = from_bag(p, "bggn")
    assert not any(".f" in t for t in g.legal())
    with pytest.raises(ExpressError, match="only the Manager"):
        g.play("A3:>>>.f13=bggn")
    g = game("Ma")
    p = g.position
    p.yard[1] = from_bag(p, "bbgn")
    with pytest.raises(ExpressError, match="exactly one"):
        g.play("A3:>>>.f13=bbgn")


def test_characters_go_back_and_the_driver_turns_face_up_at_the_round_end() -> None:
    g = to_action(["Dr", "Lo", "En"], {1: "A1A2A3", 2: "A1A2A3", 3: "A3A1A2"})
    g.play("A1:>>*")
    for _ in range(8):
        g.play(g.legal()[0])
    p = g.position
    assert p.phase_token == "r" and p.chars == [None, None, None] and not p.driver_used
