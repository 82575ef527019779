"""Rules 72–76 and notation.md's public form: what each seat and a spectator may see."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from express import Game, format_position, parse_position
from express.determinize import determinize
from express.notation import format_position as fmt
from tests.express.support import SEED3, random_game, to_action


def test_the_notation_example_views() -> None:
    g = Game.new(3, SEED3)
    assert g.view(1) == (
        "Fb/X3gww/T1/Fg/T2/T2/Fn/T1/R/Fw/X2grr/Fr/X1gnr/X4nbr ?33 ?15 "
        "A@12:-:-:06:-/A@10:-:-:?1:-/A@1:-:-:?1:- -/-/- -/-/- 2 1 c0 - x0.2")
    assert "?1:-/A@10:-:-:?1:-/A@1:-:-:?1" in g.view(0)


def test_a_seat_sees_its_own_plan_and_contracts_and_counts_of_the_others() -> None:
    g = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A2A3A1", 3: "A3A1A2"})
    g.play("A2:>>.s1")
    v2 = g.view(2)
    fields = v2.split(" ")
    assert fields[1] == "?33" and fields[2] == "?14"
    assert fields[3].split("/")[1].split(":")[3] == "13,10"
    assert fields[5] == "???/A3A1/???"
    v1 = g.view(1).split(" ")
    assert v1[3].split("/")[1].split(":")[3] == "?2" and v1[5] == "A1A2A3/??/???"


def test_during_planning_uncommitted_seats_show_dash() -> None:
    g = Game.new(3, SEED3)
    for c in ("Lo", "Dr", "En"):
        g.play(c)
    g.commit(3, "A1A2A3")
    assert g.view(1).split(" ")[5] == "-/-/???"
    assert g.view(3).split(" ")[5] == "-/-/A1A2A3"


def test_once_over_every_view_is_the_full_form() -> None:
    g = random_game(random.Random(5), players=2, resign=0.0)
    assert g.over
    full = format_position(g.position)
    assert g.view(0) == g.view(1) == g.view(2) == full


def _shuffle_hidden(p, viewer: int, rng: random.Random):
    """The same position with everything the viewer may not see drawn again."""
    view = parse_position(fmt(p, viewer))
    q = determinize(view, rng)
    q.resign_order = p.resign_order[:]
    return q


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 4))
def test_positions_differing_only_in_hidden_parts_give_the_same_view(seed: int,
                                                                      viewer: int) -> None:
    rng = random.Random(seed)
    g = random_game(rng, stop=0.01)
    p = g.position
    viewer = min(viewer, p.n)
    q = _shuffle_hidden(p, viewer, rng)
    assert fmt(q, viewer) == fmt(p, viewer)
    # Every seat's view of q is as well formed as any position's.
    for k in range(p.n + 1):
        assert fmt(parse_position(fmt(q, k)), None) is not None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_a_view_hides_the_bag_the_deck_and_other_seats_secrets(seed: int) -> None:
    rng = random.Random(seed)
    g = random_game(rng, stop=0.01)
    p = g.position
    if p.over:
        return
    for k in range(p.n + 1):
        fields = fmt(p, k).split(" ")
        assert fields[1].startswith("?") and fields[2].startswith("?")
        seats = fields[3].split("/")
        plans = fields[5].split("/")
        for s in range(1, p.n + 1):
            if s != k:
                assert seats[s - 1].split(":")[3].startswith("?")
                assert set(plans[s - 1]) <= {"?", "-"}


def test_the_signers_returned_card_is_not_derivable_from_any_view() -> None:
    # s1 and s2 from the same position differ only in hidden parts for the other seats.
    views = {}
    for choice in ("s1", "s2"):
        g = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A2A3A1", 3: "A3A1A2"})
        g.play(f"A2:>>.{choice}")
        views[choice] = [g.view(k) for k in (0, 1, 3)]
    assert views["s1"] == views["s2"]


def test_determinize_respects_what_the_viewer_knows() -> None:
    g = to_action(["Lo", "Dr", "En"], {1: "A1A2A3", 2: "A2A3A1", 3: "A3A1A2"})
    g.play("A2:>>.s1")  # seat 2 keeps 10 and puts 08 at the bottom
    rng = random.Random(1)
    for _ in range(20):
        q = determinize(g.view(2), rng, deck_bottom=["08"], not_in_plan={1: {"A1"}})
        assert q.deck[-1] == "08" and q.open[1] == ["13", "10"]
        assert "A1" not in q.plans[0] and len(q.plans[0]) == 3 and len(q.plans[2]) == 3
        assert sorted(q.bag) == sorted(g.position.bag)
        assert fmt(q, 2) == g.view(2)
        Game(q).legal()  # playable
