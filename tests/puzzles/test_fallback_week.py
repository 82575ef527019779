"""The automatic week: when Monday comes without a published week the site publishes a
generated one by itself (logged), from the beat task or from the first page view; a
published curated week is left alone."""

import logging

from puzzles import tasks
from puzzles.models import Puzzle, Week

from .conftest import MONDAY, make_puzzle, record


def test_no_published_week_publishes_a_generated_one(db, today, caplog):
    draft = Week.objects.create(monday=MONDAY)
    kept = make_puzzle(record(), draft, 0)
    with caplog.at_level(logging.WARNING, logger="puzzles.schedule"):
        assert tasks.ensure_week() == f"{MONDAY} automatic"
    week = Week.objects.get(monday=MONDAY)
    assert week.published and week.automatic
    assert week.puzzles.count() == 7
    assert all(p.validation == Puzzle.Validation.VALID for p in week.puzzles.all())
    assert "no curated week was published" in caplog.text
    kept.refresh_from_db()
    assert kept.week is None  # the unpublished draft's puzzle is kept, unscheduled
    assert str(kept.pk) in week.note


def test_the_first_page_view_publishes_it_too(client, db, today):
    assert client.get("/puzzles/").status_code == 200
    assert Week.objects.get(monday=MONDAY).automatic


def test_a_published_week_is_left_alone(live_week):
    assert tasks.ensure_week() == f"{MONDAY} curated"
    assert Week.objects.count() == 1


def test_the_beat_schedule_runs_it():
    from django.conf import settings

    assert settings.CELERY_BEAT_SCHEDULE["puzzles-ensure-week"]["task"] == "puzzles.ensure_week"
