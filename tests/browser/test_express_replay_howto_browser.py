"""Cargo Express's replay page (templates/games/cargo-express/replay.html, replay.js) for a
finished two-seat game, everything and as seat 1 saw it, and How to play Cargo Express
(/how-to-play/cargo-express): boards drawn by the game's own track, no script error, axe
clean, at 390 and 1366 px in both themes (screenshots express-replay-*, express-howto-*)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.finished_express import finished_express_game
from tests.browser.screens import browser, new_page, shoot


@pytest.fixture
def finished_game(live_url, django_user_model):
    """alice and bob's finished game, every decision the kind's Easy bot's, sent a step at a
    time: played once per test process, its rows re-loaded for each test
    (tests/browser/finished_express.py)."""
    return finished_express_game(django_user_model)


def test_the_replay_steps_through_a_finished_game(finished_game, chromium_path, live_url):
    with browser(chromium_path) as opened:
        # The finished game's own page: the final scoring and the places, the seed.
        for screen, scheme in ((1366, "dark"), (390, "light"), (390, "dark"), (1366, "light")):
            page = new_page(opened, screen, scheme)
            page.goto(f"{live_url}/g/{finished_game}")
            expect(page.locator(".xp-scores tbody tr")).to_have_count(2)
            # Phones get a card per seat (places first), desktops the table; neither
            # scrolls sideways: every item, the total included, is in view.
            table, cards = page.get_by_role("table"), page.locator(".xp-score-card")
            if screen == 390:
                expect(table).to_have_count(0)  # hidden, out of the accessibility tree
                expect(cards).to_have_count(2)
                expect(cards.first).to_contain_text("1st")
                expect(cards.first.locator(".xp-total")).to_contain_text("points")
                expect(cards.first).to_contain_text("Tie-break")
            else:
                expect(table).to_be_visible()
                expect(cards.first).to_be_hidden()
            assert page.evaluate("""() => [...document.querySelectorAll(
                '[data-scores], [data-scores] *')].every((n) => n.scrollWidth <= n.clientWidth
                || getComputedStyle(n).display === 'none')
                && document.documentElement.scrollWidth
                <= document.documentElement.clientWidth"""), screen
            expect(page.locator("[data-status-line]")).to_contain_text("points")
            expect(page.locator(".xp-winners")).to_contain_text("First place")
            expect(page.locator("[data-seed]")).to_contain_text("seed")
            expect(page.locator("[data-controls]")).to_be_hidden()
            shoot(page, f"express-over-{screen}-{scheme}")
            assert_accessible(page, f"express game over {screen} {scheme}")
            assert page.errors == []  # type: ignore[attr-defined]
        for screen, scheme in ((1366, "dark"), (390, "light"), (390, "dark"), (1366, "light")):
            page = new_page(opened, screen, scheme)
            page.goto(f"{live_url}/g/{finished_game}/replay")
            expect(page.locator(".xp-space")).to_have_count(14)
            expect(page.locator("[data-seen-as]")).to_contain_text("Everything")
            expect(page.locator(".xp-scores tbody tr")).to_have_count(2)
            everything = page.get_by_role("link", name="Everything")
            expect(everything).to_have_attribute("aria-current", "page")
            page.locator("[data-first]").click()
            expect(page.locator("[data-message]")).to_have_text("Before the first decision.")
            page.locator("[data-next]").click()
            expect(page.locator("[data-ply]")).to_contain_text("Decision 1 of")
            page.locator("[data-round-next]").click()
            expect(page.locator("[data-round-at]")).to_have_text("Round 2")
            page.locator("[data-round-prev]").click()
            expect(page.locator("[data-round-at]")).to_have_text("Round 1")
            shoot(page, f"express-replay-{screen}-{scheme}")
            assert_accessible(page, f"express replay {screen} {scheme}")
            width = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
            assert width <= 0
            assert page.errors == []  # type: ignore[attr-defined]
        page.goto(f"{live_url}/g/{finished_game}/replay?as=1")
        expect(page.locator("[data-seen-as]")).to_contain_text("As bob (Seat 2) saw it")
        page.locator("[data-first]").click()
        # Before the game's end, alice's stack and contracts are hidden from bob's view.
        for _ in range(8):
            page.locator("[data-next]").click()
        state = page.evaluate("() => document.getElementById('replay-data').textContent")
        assert '"viewer": 1' in state
        alice = page.locator(".xp-seat-panel[data-seat='0']")
        expect(alice).not_to_contain_text("Open contracts1 (")
        assert_accessible(page, "express replay as seat 2")


def test_how_to_play_draws_its_boards_with_the_game_track(chromium_path, live_url):
    with browser(chromium_path) as opened:
        for screen, scheme in ((1366, "dark"), (390, "light"), (390, "dark"), (1366, "light")):
            page = new_page(opened, screen, scheme)
            page.goto(f"{live_url}/")
            page.get_by_role("link", name="How to play Cargo Express").click()
            expect(page.get_by_role("heading", level=1)).to_have_text("How to play Cargo Express")
            boards = page.locator("[data-howto-track]")
            expect(boards).to_have_count(3)
            for i in range(3):
                expect(boards.nth(i).locator(".xp-space")).to_have_count(14)
            expect(boards.first.locator(".xp-loco")).not_to_have_count(0)
            expect(page.locator(".xp-howto .xp-scores tbody tr")).to_have_count(3)
            shoot(page, f"express-howto-{screen}-{scheme}")
            for part in ("track", "end"):
                shoot(page.locator(f"#{part}"), f"express-howto-{part}-{screen}-{scheme}")
            assert_accessible(page, f"express how to play {screen} {scheme}")
            width = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
            assert width <= 0
            assert page.errors == []  # type: ignore[attr-defined]
