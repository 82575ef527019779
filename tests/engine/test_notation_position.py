"""notation.md, positions: the eleven fields, and fine point 7 (malformed positions)."""

from __future__ import annotations

import pytest

from engine import EngineError, format_position, parse_position, start_position
from tests.engine.support import pos

START8 = ("......../......../......../......../......../......../......../........ "
          "b SLPDR SLPDR - - - 0 0 0 0.92")


def test_the_standard_start_is_written_as_the_spec_shows() -> None:
    assert format_position(start_position(8, "0.92")) == START8
    assert format_position(parse_position(START8)) == START8


def test_every_field_round_trips() -> None:
    text = pos(".O.../.BO../xBB../OBxO./BxOBB", side="o", blue="LR", orange="-", lock="c",
               blue_shelf="OtZ", orange_shelf="TjS", blue_points=17, orange_points=4,
               turns=23, rules="0.89")
    assert format_position(parse_position(text)) == text


@pytest.mark.parametrize("bad, what", [
    (pos("...../...../B..../...../....."), "float"),
    (pos("...../...../...../...../.....", blue_shelf="O", orange_shelf="O"), "Gold"),
    (pos("...../...../...../...../.....", blue="LS"), "order"),
    (pos("...../...../...../...../.....", blue="SS"), "repeated"),
    (pos("...../...../...../...../.....", blue_shelf="TO"), "order"),
    (pos("...../...../...../...../.....", blue_shelf="Oo"), "repeated"),
    (pos("...../...../...../...../.....", rules="0.90"), "rules"),
    (pos("...../...../...../...../.....", rules="0.93"), "rules"),
    (pos("...../...../...../...../.....", side="B"), "side"),
    (pos("...../...../...../...../.....", lock="f"), "corridor"),
    (pos("...../...../...../...../.....", lock="0"), "corridor"),
    (pos("...../...../...../...../.....", blue_shelf="X"), "shape"),
    (pos("...../...../...../...../.....", blue_shelf="ı"), "shape"),  # dotless i
    (pos("...../...../...../...../.....", orange_shelf="ſ"), "shape"),  # long s
    (pos("...../...../...../...../.....", blue="s"), "card"),
    ("...../...../...../..... b SLPDR SLPDR - - - 0 0 0 0.92", "rows"),
    ("..../..../..../.... b SLPDR SLPDR - - - 0 0 0 0.92", "rows"),
    ("...../...../...../...../.... b SLPDR SLPDR - - - 0 0 0 0.92", "cells"),
    ("...../...../...../...../..... b SLPDR SLPDR - - - 0 0 0", "fields"),
    ("...../...../...../...../..... b SLPDR SLPDR - - - 0 0 0 0.92 ", "fields"),
    ("...../...../...../...../.....  b SLPDR SLPDR - - - 0 0 0 0.92", "fields"),
    ("...../...../...../...../..... b  SLPDR - - - 0 0 0 0.92", "fields"),
    ("hello", "fields"),
])
def test_malformed_positions_are_rejected_with_a_message(bad: str, what: str) -> None:
    with pytest.raises(EngineError) as info:
        parse_position(bad)
    assert str(info.value)


@pytest.mark.parametrize("points", ["-1", "+1", "1.5", "x", "", "١", "0x1", "1e3"])
def test_points_and_turns_are_non_negative_digits(points: str) -> None:
    # lead ruling (4): points are non-negative digits
    for i in (7, 8, 9):
        fields = pos("...../...../...../...../.....").split(" ")
        fields[i] = points
        with pytest.raises(EngineError):
            parse_position(" ".join(fields))


def test_numbers_may_have_leading_zeros_and_are_written_without() -> None:
    p = parse_position(pos("...../...../...../...../.....").replace(" 0 0 0 ", " 007 00 010 "))
    assert (p.points, p.turns) == ([7, 0], 10)
    assert format_position(p).endswith(" 7 0 10 0.92")


def test_a_steel_chit_without_a_gold_is_accepted() -> None:
    text = pos("...../...../...../...../.....", blue_shelf="s", orange_shelf="ti")
    assert format_position(parse_position(text)) == text


def test_a_locked_corridor_is_a_row_digit_or_a_column_letter() -> None:
    for lock in "abcde12345":
        text = pos("...../...../...../...../.....", lock=lock)
        assert format_position(parse_position(text)) == text


def test_the_unloads_of_a_position_are_sorted_with_their_shapes() -> None:
    from engine import unloads

    p = parse_position(pos("...../...../B..../BB.../BBB.."))
    assert unloads(p) == sorted(unloads(p))
    assert ("a1a2a3b1", "L") in unloads(p) and ("a1a2b1b2", "O") in unloads(p)
