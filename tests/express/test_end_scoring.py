"""Rules 56–71 and 77: the end of a round, the last round, scoring, places, resigning."""

from __future__ import annotations

import pytest

from express import ExpressError, Game, start_position
from express.legal_decisions import legal
from express.moves import play
from tests.express.support import SEED3, from_bag, reparse, to_action


def test_the_rulebook_scoring_example_scores_12() -> None:
    p = start_position(3, SEED3)
    p.yard[0] = from_bag(p, "rrbbgnw")
    p.open[0] = []
    p.deck.append("06")
    assert p.score(1) == (12, 7)  # 7 cars, one full set: 7 + 5


def test_contracts_score_their_value_and_open_ones_cost_two() -> None:
    p = start_position(3, SEED3)
    p.train[0] = from_bag(p, "g")
    p.done[0] = [("01", from_bag(p, "rr"))]
    p.deck.remove("01")
    p.open[0].append(p.deck.pop())  # two open contracts
    total, tiebreak = p.score(1)
    assert total == 2 + 3 - 4 and tiebreak == 3  # the train's car breaks ties only


def test_places_share_ties_and_skip_the_next_place() -> None:
    p = start_position(3, SEED3)
    p.yard[0] = from_bag(p, "rr")
    p.yard[1] = from_bag(p, "bb")
    r = p.result()
    assert r.scores == (0, 0, -2) and r.places == (1, 1, 3) and r.winners == (1, 2)
    p.train[1] = from_bag(p, "g")  # more cars in front of seat 2 break the tie
    assert p.result().places == (2, 1, 3)


def test_resigned_seats_are_placed_last_the_earliest_lowest() -> None:
    g = Game.new(4, 2)
    g.resign(3)
    g.resign(1)
    r = g.position.result()
    assert r.places[2] == 4 and r.places[0] == 3 and set(r.winners) <= {2, 4}
    assert not g.over
    g.resign(4)
    assert g.over and g.result() is not None and g.result().winners == (2,)
    assert g.result().places == (3, 1, 4, 2)
    with pytest.raises(ExpressError, match="over"):
        g.play("Lo")


def test_a_resign_returns_the_plan_and_its_turns_are_lost_turns() -> None:
    g = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A2A3A1", 3: "A3A1A2"})
    g.resign(3)
    p = g.position
    assert p.plans[2] == [] and p.chars[2] == "Dr" and p.resigned[2]
    g.play(g.legal()[0])
    assert g.to_move() == [3] and g.legal() == ["-:~"]
    with pytest.raises(ExpressError, match="dormant"):
        g.play("A3:<<<")
    g.play("-:~")


def test_a_resign_can_end_selection_or_planning() -> None:
    g = Game.new(3, SEED3)
    g.play("Lo")
    g.play("Dr")
    g.resign(1)
    assert g.position.phase_token == "p"
    g.commit(2, "A1A2A3")
    g.resign(3)
    assert g.over


def test_the_swap_is_due_at_the_round_end_and_takes_a_free_piece() -> None:
    g = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A2A3A1", 3: "A3A1A2"})
    for _ in range(9):
        g.play(g.legal()[0])
    p = g.position
    swaps = g.legal()
    free = [s for s in range(14) if s not in p.loc and p.board[s] != "R"
            and not p.cars.get(p.board[s])]
    assert swaps == sorted(f"R{s}" for s in free)
    occupied = next(s for s in range(14) if p.cars.get(p.board[s]))
    with pytest.raises(ExpressError, match="no locomotive and no cars"):
        g.play(f"R{occupied}")
    target = free[0]
    piece = p.board[target]
    g.play(f"R{target}")
    q = g.position
    assert q.board[target] == "R" and q.board[8] == piece and q.phase_token == "c0"


def test_round_30_is_the_last_and_ends_without_a_swap() -> None:
    p = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A2A3A1", 3: "A3A1A2"}).position
    p.round = 29
    while p.phase != "r":
        play(p, legal(p)[0])
    play(p, legal(p)[0])
    assert p.round == 30 and p.flag_l
    reparse(p)
    while not p.over:
        if p.phase == "p":
            for s in p.to_move():
                play(p, "A1A2A3", s)
        else:
            play(p, legal(p)[0])
    assert p.round == 30 and p.phase_token == "o"
    assert p.chars != [None, None, None]  # rule 65: the last round skips rules 57-60


def test_the_empty_bag_and_few_cars_make_the_current_round_the_last() -> None:
    g = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A3A2A1", 3: "A3A1A2"})
    p = g.position
    p.bag = ""
    p.cars.update(X1="", X2="", X3="")  # only X4 (nbr, on 13) holds cars
    events = g.play("A3:>>>.a1")  # the refill finds the bag empty: e, and 2 cars <= 3: l
    assert [e.kind for e in events if e.kind in ("bag-empty", "last-round")] == [
        "bag-empty", "last-round"]
    assert g.position.flag_e and g.position.flag_l
    while not g.over:
        assert g.position.phase != "r"
        g.play(g.legal()[0])
    assert g.position.round == 1 and g.result() is not None


def test_the_last_round_check_runs_only_once_the_bag_flag_is_set() -> None:
    p = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A3A2A1", 3: "A3A1A2"}).position
    p.cars.update(X1="", X2="", X3="")
    p.check_last_round()
    assert not p.flag_l
