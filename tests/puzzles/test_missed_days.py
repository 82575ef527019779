"""Missed days stay open all week, past weeks stay browsable and playable, and the week
page shows each day's size, goal in words and state."""

import datetime as dt

from .conftest import MONDAY, SOLVE, post, url


def test_missed_days_are_open_all_week(client, live_week, today):
    today(MONDAY + dt.timedelta(days=6))  # Sunday
    for day in range(7):
        assert client.get(url(day)).status_code == 200


def test_the_week_page_lists_the_days(client, live_week):
    page = client.get("/puzzles/").content.decode()
    assert "Unload an I in 1 turn." in page
    assert page.count("opens on its day") == 3
    assert "5×5" in page and "8×8" in page


def test_past_weeks_are_browsable_and_playable(client, live_week, today):
    today(MONDAY + dt.timedelta(days=15))
    # The current week does not exist yet: the site generates it (tested elsewhere); the
    # old week is still there.
    page = client.get(f"/puzzles/week/{MONDAY.isoformat()}/")
    assert page.status_code == 200 and b"Unload an I in 1 turn." in page.content
    r = post(client, url(0, "turn"), {"tokens": [], "token": SOLVE})
    assert r.json()["state"]["puzzle"]["status"] == "solved"


def test_a_future_week_is_refused(client, live_week):
    assert client.get("/puzzles/week/2026-03-09/").status_code == 404


def test_the_daily_challenge_url_is_left_free(client, live_week):
    from django.urls import Resolver404, resolve

    try:
        match = resolve("/puzzles/daily/")
    except Resolver404:
        match = None
    assert match is None or match.namespace != "puzzles"
