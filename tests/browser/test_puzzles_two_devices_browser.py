"""Weekly Puzzles for a member on two devices: solved on a desktop, the phone (a second
browser context signed in to the same account) shows it solved, with the attempt count."""

import datetime as dt

import pytest
from playwright.sync_api import expect

from puzzles import schedule
from puzzles.models import Week
from tests.browser.conftest import asgi_server, chromium_path, live_url
from tests.browser.devices import PASSWORD, devices, sign_in
from tests.puzzles.conftest import MONDAY, generated_records, make_puzzle, record

__all__ = ["asgi_server", "chromium_path", "live_url"]



@pytest.fixture
def week_for_member(transactional_db, monkeypatch, django_user_model):
    monkeypatch.setattr(schedule, "today", lambda: MONDAY + dt.timedelta(days=3))
    django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    week = Week.objects.create(monday=MONDAY, status=Week.Status.PUBLISHED)
    records = generated_records()
    for day in range(7):
        make_puzzle(record() if day == 0 else records[day], week, day)
    return week


@pytest.fixture
def two_devices(week_for_member, chromium_path, live_url):
    with devices(chromium_path) as pages:
        yield pages



def test_a_members_solve_follows_to_another_device(two_devices, live_url):
    desk, phone = two_devices
    for page in (desk, phone):
        sign_in(page, live_url)
    desk.goto(live_url + "/puzzles/2026-03-02/")
    desk.locator('.target.column[data-column="a"]').click()
    desk.locator('[data-unload="a1a2a3a4"]').click()
    desk.locator('[data-action="unload"]').click()
    expect(desk.locator("[data-status-line]")).to_have_text("Solved in 1 turn!")

    phone.goto(live_url + "/puzzles/")
    expect(phone.locator('[data-day="2026-03-02"] [data-state]')).to_have_text("solved")
    phone.goto(live_url + "/puzzles/2026-03-02/")  # a fresh attempt, the solve recorded
    expect(phone.locator("[data-attempt-info]")).to_contain_text("You solved it in 1 attempt")
