"""Correspondence games in Chromium (issue #29): the game page shows each acting seat's
deadline as a date in the member's own time zone beside its countdown (Cargo Connect, and
Cargo Express's planning with both seats' deadlines at once); the "Your turn" page and the
home page list the games waiting with their deadlines; the header says how many wait. At
390 and 1366 px, light and dark, axe clean; screenshots kept."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.devices import sign_in
from tests.browser.screens import SCREENS, browser, shoot
from tests.clocks.support import start, timed_game
from tests.clocks.test_express_clocks import express_game, picks
from tests.games.support import new_game

PASSWORD = "a-long-cargo-pass"


@pytest.fixture
def corr_games(django_user_model, live_url):
    users = {name: django_user_model.objects.create_user(name, f"{name}@example.com",
                                                         PASSWORD)
             for name in ("alice", "bob", "carol")}
    connect = start(timed_game(users["alice"], users["bob"], "3d"), users)  # alice to move
    express = picks(express_game(users, n=2, time_control="1d"), users)  # both plan
    theirs = new_game(users["bob"], users["alice"])  # untimed, bob (Blue) to move
    return connect, express, theirs


def test_deadlines_on_the_game_page_and_the_your_turn_list(corr_games, chromium_path,
                                                          live_url):
    connect, express, theirs = corr_games
    with browser(chromium_path) as opened:
        for screen in (390, 1366):
            for scheme in ("light", "dark"):
                context = opened.new_context(viewport=SCREENS[screen],  # type: ignore[arg-type]
                                             color_scheme=scheme, timezone_id="Asia/Tokyo",
                                             locale="en-GB")
                page = context.new_page()
                page.set_default_timeout(15_000)
                errors: list[str] = []
                page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
                sign_in(page, live_url)
                tag = f"{screen}-{scheme}"

                waiting = page.get_by_role("link", name="2 waiting for you")
                expect(waiting).to_be_visible()
                waiting.click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Your turn")
                rows = page.locator(".waiting-list li")
                expect(rows).to_have_count(3)
                expect(rows.nth(0)).to_contain_text("Cargo Express · 1 day per turn · due")
                expect(rows.nth(0).locator("time")).to_contain_text("GMT+9")  # Tokyo's
                expect(rows.nth(0).locator("[data-countdown]")).to_have_text(
                    re.compile(r"\((23 h \d\d min|1 d 0 h) left\)"))
                expect(rows.nth(1)).to_contain_text("3 days per turn")
                expect(rows.nth(2)).to_contain_text("bob to move")
                assert_accessible(page, f"your turn, {tag}")
                shoot(page, f"corr-waiting-{tag}")

                page.goto(f"{live_url}/g/{connect.id}")
                deadline = page.locator(".clock.side-blue .clock-deadline")
                expect(deadline).to_be_visible()
                expect(deadline).to_contain_text(re.compile(r"due \w+ \d+ \w+, \d\d:\d\d"))
                expect(deadline.locator("time")).to_have_attribute(
                    "title", re.compile(r"GMT\+9"))  # Tokyo's time, named in full
                expect(page.locator(".player.blue .player-name")).to_contain_text("alice")
                expect(page.locator(".clock.side-blue .clock-time")).to_have_text(
                    re.compile(r"^2 d 23 h$"))
                expect(page.locator(".clock.side-orange .clock-deadline")).to_have_count(0)
                assert_accessible(page, f"correspondence game, {tag}")
                shoot(page, f"corr-game-{tag}")

                page.goto(f"{live_url}/g/{express.id}")
                expect(page.locator(".clock-deadline")).to_have_count(2)  # both plan at once
                assert_accessible(page, f"express correspondence, {tag}")
                shoot(page, f"corr-express-{tag}")

                page.goto(f"{live_url}/")
                section = page.locator(".home-games")
                expect(section.locator("time[data-deadline]")).to_have_count(2)
                assert_accessible(page, f"home, {tag}")
                shoot(page, f"corr-home-{tag}")
                assert errors == []
                context.close()
