"""The admin as a curator uses it: add a puzzle from its record (the editor's text), save
and validate, see the figures; a week's Publish button refuses an invalid week; a live
puzzle cannot be edited; the draft action fills a week."""

import datetime as dt

import pytest

from puzzles.models import Puzzle, Week

from .conftest import MONDAY, record


@pytest.fixture
def curator(admin_client, today):
    return admin_client


def test_add_a_puzzle_save_and_validate(curator):
    week = Week.objects.create(monday=MONDAY + dt.timedelta(days=7))
    r = curator.post("/admin/puzzles/puzzle/add/", {
        "record": record(), "week": week.pk, "day": 0, "note": "", "_validate": "1"},
        follow=True)
    assert r.status_code == 200
    p = Puzzle.objects.get()
    assert p.validation == Puzzle.Validation.VALID and p.fewest == 1
    text = r.content.decode()
    assert "valid, solvable in exactly 1" in text
    assert "data-puzzle-editor" in text and "js/puzzles/editor.js" in text


def test_a_floating_module_is_refused(curator):
    floating = "...../B..../...../...../..... b - - - - - 0 0 0 0.92"
    r = curator.post("/admin/puzzles/puzzle/add/", {"record": record(start=floating),
                                                    "note": ""})
    assert r.status_code == 200 and not Puzzle.objects.exists()
    assert "float" in r.content.decode()


def test_publish_button_refuses_an_incomplete_week(curator):
    week = Week.objects.create(monday=MONDAY + dt.timedelta(days=7))
    r = curator.post(f"/admin/puzzles/week/{week.pk}/change/", {
        "monday": week.monday.isoformat(), "note": "", "_publish": "1",
        "puzzles-TOTAL_FORMS": "0", "puzzles-INITIAL_FORMS": "0"}, follow=True)
    assert "was not published" in r.content.decode()
    assert not Week.objects.get(pk=week.pk).published


def test_draft_action_then_publish(curator):
    week = Week.objects.create(monday=MONDAY + dt.timedelta(days=7))
    curator.post("/admin/puzzles/week/", {"action": "draft_selected",
                                          "_selected_action": [week.pk]})
    assert week.puzzles.count() == 7
    curator.post("/admin/puzzles/week/", {"action": "publish_selected",
                                          "_selected_action": [week.pk]})
    assert Week.objects.get(pk=week.pk).published


def test_a_live_puzzle_cannot_be_edited(curator, live_week):
    p = live_week.puzzles.get(day=0)
    r = curator.post(f"/admin/puzzles/puzzle/{p.pk}/change/", {
        "record": record(turns=2), "week": live_week.pk, "day": 0, "note": ""})
    assert "can no longer change" in r.content.decode()
    assert Puzzle.objects.get(pk=p.pk).turns == 1
