"""Game records: reading rounds, fields and resigns; writing them back (notation.md)."""

from __future__ import annotations

import random

import pytest

from express import ExpressError, Game
from tests.express.support import SEED3, random_game, record

ROUND1 = "1. Lo Dr En | A2A1A3 A2A3A1 A3A1A2 | A2:^.>>.s1 A2:^.>>.d1 A3:^.<<<"


def test_the_notation_example_round_replays_to_the_position_given() -> None:
    g = Game.from_record(record(ROUND1))
    assert repr(g.position) == (
        "Position('Fb/X3wwn/T1/Fg/T2/T2/Fn/T1/R/Fw/X2rrw/Fr/X1nrn/X4nbr "
        "nwgbngbnwwbbbggwngrrrgwbbnrwrb 18.12.02.07.01.09.04.17.11.14.03.15.05.08 "
        "A@9:g:-:06:-/A@12:g:-:13,10:-/A@3:-:g:16:- En/Lo/Dr A1A2/A1A3/A3A1 2 1 a3 - x0.2')")


def test_a_record_written_by_the_game_reads_back() -> None:
    g = Game.from_record(record(ROUND1))
    text = g.record()
    assert "[Seed \"20261130\"]" in text and ROUND1 in text
    assert Game.from_record(text).position == g.position


@pytest.mark.parametrize("seed", range(6))
def test_random_records_with_resigns_read_back(seed: int) -> None:
    g = random_game(random.Random(seed), resign=0.01)
    assert Game.from_record(g.record()).position == g.position


def test_a_start_record_leaves_the_fields_before_its_phase_empty() -> None:
    g = Game.from_record(record(ROUND1))
    start = repr(g.position)[10:-2]
    h = Game.from_record(record("1. | | A1:>.x", start=start))
    assert h.position.phase_token == "a4"
    assert "1. | | A1:>.x" in h.record() and "[Start" in h.record()


def test_plans_map_onto_seats_in_turn_order_and_dashes_skip_seats() -> None:
    g = Game.from_record(record("1. Lo Dr En | - A2A3A1"))
    assert g.position.plans == [[], [], ["A2", "A3", "A1"]]  # order 2, 3, 1
    with pytest.raises(ExpressError) as e:
        Game.from_record(record("1. Lo Dr En | - A2A3A1 A1A2A3 A1A2A3"))
    assert e.value.at == 6


def test_a_resign_may_stand_in_any_field_and_after_a_swap() -> None:
    g = Game.from_record(record("1. Lo Dr resign1 | A2A1A3 A2A3A1"))
    assert g.position.phase_token == "a0" and g.position.resigned[0]
    played = Game.from_record(record(ROUND1))
    for t in ["A1:>.x", "A3:<<<", "A1:>", "A1:<", "A1:<", "A3:>>>"]:
        played.play(t if t in played.legal() else played.legal()[0])
    swap = played.legal()[0]
    text = played.record().rstrip("\n") + f" | {swap} resign3"
    g = Game.from_record(text)
    assert g.position.resigned[2] and g.position.round == 2


@pytest.mark.parametrize("body, what", [
    ("1. Lo Dr En | A2A1A3 A2A3A1 A3A1A2 | A2:^.>>.s1 | R5", "before the round's turns"),
    ("1. Lo Dr En 2.", "middle of round"),
    ("1. Lo Dr resign1 | A2A1A3 A2A3A1 A1A2A3", "planning is over"),
    ("1. Lo | Dr", "selection"),
])
def test_fields_end_only_when_their_part_of_the_round_is_complete(body: str,
                                                                  what: str) -> None:
    with pytest.raises(ExpressError, match=what):
        Game.from_record(record(body))


def test_a_record_needs_a_seed_or_a_start() -> None:
    with pytest.raises(ExpressError, match="neither a Seed nor a Start"):
        Game.from_record('[Game "cargo-express"]\n[Rules "x0.1"]\n[Players "3"]\n1. Lo')


def test_the_seed_header_fixes_the_setup() -> None:
    assert Game.from_record(record("")).position == Game.new(3, SEED3).position


def test_the_public_record_hides_unrevealed_cards_and_the_seed() -> None:
    g = Game.from_record(record(ROUND1))
    spectator = g.record(0)
    assert "Seed" not in spectator
    assert spectator.endswith("1. Lo Dr En | A2?? A2?? A3?? | A2:^.>>.s1 A2:^.>>.d1 A3:^.<<<\n")
    assert "| A2A1A3 A2?? A3?? |" in g.record(2)  # seat 2 moves first: its own plan is shown
