"""The clocks on the game page: shown for a timed game, the running one ticking down in the
browser between frames, the same after a reload (the server's time, not the page's), and an
abort offered before both have moved."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.devices import devices, sign_in
from tests.browser.screens import shoot
from tests.clocks.support import play, timed_game

PASSWORD = "a-long-cargo-pass"


@pytest.fixture
def started_game(django_user_model, live_url):
    """A 3+2 game, alice Blue and bob Orange, both first turns played: Blue's clock runs."""
    users = {name: django_user_model.objects.create_user(name, f"{name}@example.com",
                                                         PASSWORD)
             for name in ("alice", "bob")}
    game = timed_game(users["alice"], users["bob"], "3+2")
    play(game.id, users["alice"])
    play(game.id, users["bob"])
    fresh = timed_game(users["alice"], users["bob"], "5+3")
    return game, fresh


def seconds(text: str) -> float:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def test_the_clock_shows_ticks_and_survives_a_reload(started_game, chromium_path, live_url):
    game, fresh = started_game
    with devices(chromium_path, widths=(1366, 390)) as (page, phone):
        phone.goto(f"{live_url}/g/{game.id}")  # a spectator on a phone sees them too
        expect(phone.locator(".clock.side-blue.is-running")).to_be_visible()
        expect(phone.locator("[data-abandon]")).to_be_hidden()  # not a player
        shoot(phone, "clock-phone-spectator", full_page=False)
        sign_in(page, live_url)
        page.goto(f"{live_url}/g/{game.id}")
        # Each clock is on its player's bar (issue #27, item 6); the control is in the header.
        expect(page.locator("[data-clocks]")).to_be_hidden()
        expect(page.locator("[data-game-facts]")).to_contain_text("3+2")
        blue = page.locator(".player.blue [data-clock-slot=blue] .clock.side-blue")
        orange = page.locator(".player.orange [data-clock-slot=orange] .clock.side-orange")
        expect(blue).to_have_class(re.compile(r"\bis-running\b"))
        expect(orange).not_to_have_class(re.compile(r"\bis-running\b"))
        expect(blue.locator(".clock-name")).to_have_text("alice (Blue)")
        expect(orange.locator(".clock-time")).to_have_text("3:00")
        first = seconds(blue.locator(".clock-time").inner_text())
        assert 120 <= first < 180  # running since the fixture (sign-in takes a while)
        page.wait_for_timeout(2100)  # the page counts down between frames
        later = seconds(blue.locator(".clock-time").inner_text())
        assert first - 3 <= later <= first - 1, (first, later)
        shoot(page, "clock-running", full_page=False)

        page.reload()  # the server's clock: it kept running, nothing restarted
        expect(blue).to_have_class(re.compile(r"\bis-running\b"))
        reloaded = seconds(blue.locator(".clock-time").inner_text())
        assert later - 3 <= reloaded <= later, (later, reloaded)
        expect(orange.locator(".clock-time")).to_have_text("3:00")
        expect(page.locator("[data-action=abort]")).to_be_hidden()  # both have moved

        page.goto(f"{live_url}/g/{fresh.id}")  # nobody has moved: no clock runs yet
        expect(page.locator(".clock.is-running")).to_have_count(0)
        expect(page.locator(".clock.side-blue .clock-time")).to_have_text("5:00")
        page.get_by_role("button", name="Abort the game").click()
        expect(page.locator("[data-status-line]")).to_contain_text(
            "Game aborted by Blue (alice)")
        expect(page.locator("[data-action=resign]")).to_be_hidden()
        shoot(page, "clock-aborted", full_page=False)
        assert page.errors == [] and phone.errors == []  # type: ignore[attr-defined]
