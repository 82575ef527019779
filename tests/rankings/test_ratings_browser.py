"""The pages of ratings per game type in Chromium, at 390 and 1366 px, light and dark: the
rankings board of a type rated by OpenSkill with the switch between types, and a profile
with a card per type. No sideways scroll, no axe violation; screenshots kept
(tests/browser/screens.py: ratings-board-*, ratings-profile-*)."""

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.axe import assert_accessible
from tests.browser.screens import browser, new_page, shoot
from tests.rankings.conftest import play_bids


@pytest.fixture
def played(live_url, users, rated_bid):
    for i in range(5):
        play_bids(services, users, {"alice": 9, "bob": 5, "carol": (3 + i) % 10})
    return live_url


@pytest.mark.parametrize("screen", [390, 1366])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_board_per_type_and_the_profile_read_at_both_widths(played, chromium_path,
                                                                screen, scheme):
    with browser(chromium_path) as opened:
        page = new_page(opened, screen, color_scheme=scheme)
        page.goto(played + "/rankings/?tab=elo&game=bid")
        switch = page.get_by_role("navigation", name="Game type")
        expect(switch.locator('[aria-current="page"]')).to_have_text("Bid")
        expect(page.locator("table.board tbody tr")).to_have_count(3)
        expect(page.locator("table.board .provisional").first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth"
                             " <= document.documentElement.clientWidth")
        assert_accessible(page, f"rankings of Bid, {scheme}, {screen}")
        shoot(page, f"ratings-board-{screen}-{scheme}")

        switch.get_by_role("link", name="Cargo Connect").click()
        expect(page.locator("h2")).to_have_text("Elo rating")

        page.goto(played + "/@/alice")
        expect(page.locator('[data-rating="bid-openskill"] h3')).to_have_text("Bid: Rating")
        expect(page.locator('[data-rating="bid-openskill"] svg polyline')).to_have_count(1)
        assert page.evaluate("document.documentElement.scrollWidth"
                             " <= document.documentElement.clientWidth")
        assert_accessible(page, f"profile with Bid, {scheme}, {screen}")
        shoot(page, f"ratings-profile-{screen}-{scheme}")
        assert page.errors == []  # type: ignore[attr-defined]
