"""Publishing a week: a gap, an invalid puzzle (solvable in fewer turns), a weekend puzzle
that needs no card, the wrong size for its day and a puzzle used in an earlier week all keep
it from going live; a generated week passes; the admin's buttons and actions."""

import datetime as dt

import pytest

from puzzles import schedule
from puzzles.models import Puzzle, Week

from .conftest import MONDAY, generated_records, make_puzzle, record


@pytest.fixture
def draft(db, today):
    week = Week.objects.create(monday=MONDAY + dt.timedelta(days=7))
    for day, text in enumerate(generated_records((MONDAY + dt.timedelta(days=7)).isoformat())):
        make_puzzle(text, week, day)
    return week


def replace(week, day, text, prove=True):
    Puzzle.objects.filter(week=week, day=day).delete()
    return make_puzzle(text, week, day, prove)


def test_a_generated_week_passes_validation(draft):
    assert schedule.week_problems(draft) == []
    schedule.publish(draft)
    assert Week.objects.get(pk=draft.pk).published


def test_a_gap_keeps_a_week_off(draft):
    Puzzle.objects.filter(week=draft, day=2).delete()
    with pytest.raises(schedule.ScheduleError, match="Wednesday has no puzzle"):
        schedule.publish(draft)
    assert not Week.objects.get(pk=draft.pk).published


def test_solvable_in_fewer_turns_cannot_be_published(draft):
    p = replace(draft, 1, record(turns=2))  # the I drop solves it in 1
    assert p.validation == Puzzle.Validation.INVALID
    assert "solvable in 1 turn(s), fewer than its limit of 2" in p.validation_error
    with pytest.raises(schedule.ScheduleError, match="Tuesday.*fewer than its limit"):
        schedule.publish(draft)


def test_a_weekend_puzzle_must_need_a_card(draft):
    # One Blue core and a Station Rotation in hand: three drops make the I, no card needed.
    start = "/".join(["........"] * 7 + ["B......."]) + " b S - - - - 0 0 0 0.92"
    p = replace(draft, 5, record(start=start, goal="unload:I", turns=3, size=8))
    assert p.validation == Puzzle.Validation.VALID and p.needs_card is False
    with pytest.raises(schedule.ScheduleError, match="Saturday.*must need a card"):
        schedule.publish(draft)


def test_the_wrong_size_for_its_day_cannot_be_published(draft):
    replace(draft, 4, record())  # Friday is 7×7 in 3; this is 5×5 in 1
    with pytest.raises(schedule.ScheduleError) as e:
        schedule.publish(draft)
    text = str(e.value)
    assert "Friday is 7×7 in 3 turns: this puzzle is 5×5" in text
    assert "this puzzle's limit is 1" in text


def test_an_unvalidated_puzzle_cannot_be_published(draft):
    replace(draft, 0, record(), prove=False)
    with pytest.raises(schedule.ScheduleError, match="Monday.*not validated"):
        schedule.publish(draft)


def test_a_puzzle_used_in_an_earlier_week_cannot_be_published(draft, live_week):
    used = live_week.puzzles.get(day=2)
    replace(draft, 2, used.record)
    with pytest.raises(schedule.ScheduleError, match="already used in an earlier week"):
        schedule.publish(draft)


def test_a_changed_puzzle_goes_back_to_unvalidated(draft):
    p = draft.puzzles.get(day=0)
    assert p.validation == Puzzle.Validation.VALID
    p.note = "a curator's note"
    p.save()
    assert Puzzle.objects.get(pk=p.pk).validation == Puzzle.Validation.VALID
    p.turns = 2
    p.save()
    p = Puzzle.objects.get(pk=p.pk)
    assert p.validation == Puzzle.Validation.UNVALIDATED and p.fewest is None


def test_draft_week_fills_the_empty_days(db, today):
    monday = MONDAY + dt.timedelta(days=14)
    week = Week.objects.create(monday=monday)
    keep = make_puzzle(record(), week, 0)
    week, filled = schedule.draft_week(monday)
    assert filled == [1, 2, 3, 4, 5, 6]
    assert week.puzzles.get(day=0) == keep
    generated = week.puzzles.get(day=6)
    assert generated.source == Puzzle.Source.GENERATED
    assert generated.validation == Puzzle.Validation.VALID and generated.needs_card
    assert generated.proof_nodes and generated.proof_seconds is not None
