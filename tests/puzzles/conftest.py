"""Weekly Puzzles fixtures: a fixed week (Monday 2 March 2026), the site's date set by the
test (`today`), hand-made 5×5 puzzles for each goal, and a generated week made once per
session (the generator proves every puzzle it makes)."""

from __future__ import annotations

import datetime as dt
import functools

import pytest
from django.contrib.auth import get_user_model

from engine.generator import week as generate_week
from puzzles import schedule, validation
from puzzles.models import Puzzle, Week
from puzzles.records import parse

MONDAY = dt.date(2026, 3, 2)
PASSWORD = "a-long-cargo-pass"

# Three Blue cores in column a: dropping into a makes an I (6 points + the Gold chit, 2).
COLUMN = "...../...../B..../B..../B.... b - - - - - 0 0 0 0.92"
SOLVE = "a+a1a2a3a4"


def record(start: str = COLUMN, goal: str = "unload:I", turns: int = 1, size: int = 5) -> str:
    return (f'[Size "{size}"]\n[Rules "0.92"]\n[Start "{start}"]\n[Goal "{goal}"]\n'
            f'[Turns "{turns}"]\n')


def make_puzzle(text: str, week: Week | None = None, day: int | None = None,
                prove: bool = True) -> Puzzle:
    parts = parse(text)
    p = Puzzle(start=parts.start, goal=parts.goal, turns=parts.turns, week=week, day=day)
    p.save()
    if prove:
        validation.validate(p, background=False)
    return p


@functools.cache
def generated_records(monday: str = MONDAY.isoformat(), seed: int = 1) -> tuple[str, ...]:
    return tuple(gen.record for _, gen in generate_week(monday, seed))


@pytest.fixture
def today(monkeypatch):
    """`today(date)` sets the site's date; it starts on the fixed week's Thursday."""
    def set_today(date: dt.date) -> None:
        monkeypatch.setattr(schedule, "today", lambda: date)
    set_today(MONDAY + dt.timedelta(days=3))
    return set_today


@pytest.fixture
def live_week(db, today):
    """The fixed week, published as made: Monday is the hand-made unload:I puzzle, the other
    days generated (Puzzle rows are what the pages serve; publishing checks are tested in
    test_admin_publish.py)."""
    week = Week.objects.create(monday=MONDAY, status=Week.Status.PUBLISHED)
    records = generated_records()
    for day in range(7):
        make_puzzle(record() if day == 0 else records[day], week, day)
    return week


@pytest.fixture
def member(db):
    return get_user_model().objects.create_user("alice", "alice@example.com", PASSWORD)


def url(day: int, what: str = "") -> str:
    date = (MONDAY + dt.timedelta(days=day)).isoformat()
    return f"/puzzles/{date}/{what}"


def post(client, path: str, body: dict):
    return client.post(path, body, content_type="application/json")
