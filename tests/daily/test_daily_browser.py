"""In the browser: a member starts today's Easy challenge from the Daily Challenge page,
plays two turns, opens the same game in a second browser context (another device), goes on
there, resigns; the page then shows the scaled result and the board has it."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import asgi_server, chromium_path, live_url
from tests.browser.devices import PASSWORD, devices, sign_in
from tests.games.bot_support import eager

__all__ = ["asgi_server", "chromium_path", "eager", "live_url"]

RESULT = re.compile(r"^-?\d+ \([+\u2212\u00b1]\d+\)$")


@pytest.fixture
def member(django_user_model):
    return django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)


@pytest.fixture
def two_devices(member, chromium_path, live_url, eager):
    with devices(chromium_path) as pages:
        yield pages



def play_a_turn(page, turns_before):
    expect(page.locator("[data-status-line]")).to_have_text("Your turn")
    page.locator(".target.column").first.click()
    expect(page.locator(".turn-list .tok")).to_have_count(turns_before + 2)
    expect(page.locator("[data-status-line]")).to_have_text("Your turn")


def test_a_member_plays_on_two_devices_and_resigns(two_devices, live_url):
    desk, phone = two_devices
    sign_in(desk, live_url)
    desk.goto(live_url + "/puzzles/daily/")
    easy = desk.locator('[data-difficulty="easy"]')
    expect(easy).to_contain_text("Not started")
    expect(desk.locator("[data-countdown]")).to_have_text(re.compile(r"^\d+:\d\d:\d\d left$"))
    easy.get_by_role("button", name="Play ranked").click()
    expect(desk).to_have_url(re.compile(r"/g/\w{10}$"))
    game_url = desk.url
    expect(desk.locator("[data-connection]")).to_have_text("Live")
    play_a_turn(desk, 0)
    play_a_turn(desk, 2)

    sign_in(phone, live_url)
    phone.goto(live_url + "/puzzles/daily/")
    easy = phone.locator('[data-difficulty="easy"]')
    expect(easy).to_contain_text("In progress (ranked)")
    easy.get_by_role("link", name="Continue").click()
    expect(phone).to_have_url(game_url)
    expect(phone.locator(".turn-list .tok")).to_have_count(4)
    play_a_turn(phone, 4)
    expect(desk.locator(".turn-list .tok")).to_have_count(6)  # the first device sees it live
    phone.locator("[data-action=resign]").click()
    phone.locator("dialog").get_by_role("button", name="Resign").click()
    expect(phone.locator("[data-audit]")).to_contain_text("Final Audit")

    phone.goto(live_url + "/puzzles/daily/")
    easy = phone.locator('[data-difficulty="easy"]')
    expect(easy).to_contain_text("Finished (ranked)")
    shown = easy.locator(".daily-result").inner_text()
    assert RESULT.match(shown), shown
    expect(easy.locator("[data-share]")).to_contain_text(shown)
    easy.get_by_role("button", name="Practice").is_visible()

    desk.goto(live_url + "/rankings/?tab=daily&level=easy")
    row = desk.locator("table.daily-board tr.is-you").first
    expect(row).to_contain_text("alice")
    expect(row.locator(".daily-result-cell")).to_have_text(shown)
    expect(desk.locator(".daily-my-rank")).to_contain_text("1")
    assert desk.errors == [] and phone.errors == []
