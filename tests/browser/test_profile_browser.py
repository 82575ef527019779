"""A profile looked at as a visitor would: at 360 px and at 1366 px the page does not
scroll sideways, shows both ratings with their charts, the record, the trophy cabinet and
the recent games; from the navigation the rankings page lists the player, and its row
links back to the profile. The finished game's page shows the rating changes and the
result line. Games are played through the services before the browser starts."""

import os
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts.achievements import ACHIEVEMENTS
from tests.browser.screens import shoot
from tests.games.bot_support import eager
from tests.profile.conftest import Plays

__all__ = ["eager"]


@pytest.fixture
def profile_data(live_url, django_capture_on_commit_callbacks, eager):
    User = get_user_model()
    kofi = User.objects.create_user("Kofi", "kofi@example.com", "a-long-cargo-pass")
    bob = User.objects.create_user("bob", "bob@example.com", "a-long-cargo-pass")
    play = Plays(django_capture_on_commit_callbacks)
    for seed in range(3):
        play.game(kofi, bob, seed=seed * 11)
    for _ in range(3):
        last = play.resign(kofi, bob)
    play.bot(kofi, level="easy")
    return {"game": last}


def shoot_long(page, name: str) -> None:
    """A full-page screenshot, and with PROFILE_SHOTS set, slices of it 900 px high (for
    looking at a long page)."""
    shoot(page, name)
    if os.environ.get("PROFILE_SHOTS"):
        height = page.evaluate("document.documentElement.scrollHeight")
        width = page.viewport_size["width"]
        for i, top in enumerate(range(0, height, 900)):
            shoot(page, f"{name}-{i}", clip={"x": 0, "y": top, "width": width,
                                             "height": min(900, height - top)})


def no_sideways_scroll(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth")


@pytest.mark.parametrize("width", [360, 1366])
def test_a_profile_reads_at_phone_and_desktop_widths(profile_data, page, live_url, width):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_url + "/@/KOFI")  # any letter case finds the account
    expect(page).to_have_url(live_url + "/@/Kofi")
    expect(page.locator("h1")).to_have_text("Kofi")
    expect(page.locator('[data-rating="elo"] h3')).to_have_text("Elo rating")
    expect(page.locator('[data-rating="bot"] h3')).to_have_text("vs CargoBot rating")
    expect(page.locator('[data-rating="elo"] svg polyline')).to_have_count(1)
    expect(page.locator(".cabinet .achievement")).to_have_count(len(ACHIEVEMENTS))
    expect(page.locator(".cabinet .is-earned").first).to_be_visible()
    expect(page.locator(".recent-games")).to_contain_text("won by resignation")
    expect(page.locator(".recent-games")).to_contain_text("vs CargoBot Easy")
    assert no_sideways_scroll(page)
    shoot_long(page, f"profile-{width}")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Rankings").click()
    expect(page).to_have_url(live_url + "/rankings/")
    row = page.locator("table.board tbody tr", has_text="Kofi")
    expect(row).to_have_count(1)
    assert no_sideways_scroll(page)
    shoot_long(page, f"rankings-{width}")
    row.get_by_role("link", name="Kofi").click()
    expect(page).to_have_url(live_url + "/@/Kofi")

    page.goto(live_url + f"/g/{profile_data['game'].id}")
    expect(page.locator(".turn-list .result-line")).to_have_text("1-0 · Orange resigned")
    expect(page.locator(".player.blue .rating-change")).to_have_text(re.compile(r"^\+\d+$"))
    expect(page.locator(".player.orange .rating-change")).to_have_text(re.compile(r"^−\d+$"))
    expect(page.locator(".audit .rating-row")).to_contain_text("Elo rating")
    assert no_sideways_scroll(page)
    shoot_long(page, f"game-{width}")
    assert errors == []
