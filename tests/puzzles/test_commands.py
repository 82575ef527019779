"""The management commands: draft_week drafts a whole proven week; ensure_week publishes
the automatic week when none is published."""

import io

from django.core.management import call_command

from puzzles.models import Week

from .conftest import MONDAY


def test_draft_week_drafts_a_proven_week(db, today):
    out = io.StringIO()
    call_command("draft_week", "--monday", "2026-03-09", stdout=out)
    week = Week.objects.get(monday="2026-03-09")
    assert not week.published and week.puzzles.count() == 7
    assert "7 day(s) generated and proven" in out.getvalue() and "Problems: none" in out.getvalue()


def test_ensure_week_publishes_the_automatic_week(db, today):
    out = io.StringIO()
    call_command("ensure_week", stdout=out)
    assert Week.objects.get(monday=MONDAY).automatic
    assert "published automatically" in out.getvalue()
