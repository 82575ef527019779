"""Events: what each decision did, in order, and who may see it."""

from __future__ import annotations

import random

from express import Game
from express import events as ev
from tests.express.support import SEED3, random_game, to_action


def test_a_turn_tells_its_story_in_order() -> None:
    g = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A2A3A1", 3: "A3A1A2"})
    kinds = [e.kind for e in g.play("A2:^.>>.s1")]
    assert kinds == ["revealed", "attached", "refilled", "moved", "signed",
                     "contracts-drawn", "turn-ended"]


def test_picks_and_plans_are_announced_but_a_plan_only_to_its_seat() -> None:
    g = Game.new(3, SEED3)
    assert [(e.kind, e.seat) for e in g.play("Lo")] == [("picked", 2)]
    g.play("Dr")
    assert [e.kind for e in g.play("En")] == ["picked", "phase"]
    events = g.commit(1, "A1A2A3")
    public = [e for e in events if e.visible_to(2)]
    assert [e.kind for e in public] == ["plan-committed"]
    chosen = next(e for e in events if isinstance(e, ev.PlanChosen))
    assert chosen.visible_to(1) and not chosen.visible_to(0) and chosen.cards == (
        "A1", "A2", "A3")


def test_no_event_a_seat_may_see_names_a_hidden_contract_or_plan() -> None:
    rng = random.Random(3)
    g = random_game(rng, players=3, stop=0.0, resign=0.0)
    replay = Game(g.start)
    for entry in g.entries:
        events = replay.play(entry.token, entry.seat or None)
        for e in events:
            if isinstance(e, ev.ContractsDrawn | ev.PlanChosen):
                assert e.only == (e.seat,)
            else:
                assert e.only is None
    assert replay.position == g.position


def test_the_game_over_event_carries_the_result() -> None:
    g = Game.new(2, 1)
    events = g.resign(1)
    assert events[-1].kind == "over"
    assert events[-1].as_dict()["result"] == {"scores": [-2, -2], "tiebreak": [0, 0],
                                              "places": [2, 1], "winners": [2]}


def test_a_refill_and_a_reorder_name_the_seat_whose_action_made_them() -> None:
    """Issue #42: `refilled` and `reordered` carried seat 0 (the site's null) although a
    seat's own attach or reorder made them; they name that seat, as `attached` does."""
    g = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A2A3A1", 3: "A3A1A2"})
    seat = g.position.turn_seat()
    events = g.play("A2:^.>>.s1")
    attached = next(e for e in events if e.kind == "attached")
    refilled = next(e for e in events if e.kind == "refilled")
    assert attached.seat == refilled.seat == seat
    g = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A2A3A1", 3: "A3A1A2"})
    reorder = next(t for t in g.legal() if ".o" in t)
    seat = g.position.turn_seat()
    reordered = next(e for e in g.play(reorder) if e.kind == "reordered")
    assert reordered.seat == seat and reordered.seat != 0
