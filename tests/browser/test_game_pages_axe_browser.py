"""axe-core finds no violation of any impact on the Cargo Connect game pages, at 390 and
1366 px wide, in the dark and the light scheme: the game as a player (also with a card's
panel open) and as a spectator, a finished game with its Final Audit, the replay and the
review. Each page is kept as a screenshot (tests/browser/screens.py)."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import assert_accessible
from tests.browser.devices import devices, sign_in
from tests.browser.pages import in_progress, make_players, reviewed
from tests.browser.screens import shoot
from tests.games.bot_support import eager

__all__ = ["eager"]

SIZES = {390: 844, 1366: 900}
SCHEMES = ("dark", "light")


@pytest.fixture
def games(live_url, django_user_model, eager, monkeypatch):  # noqa: F811
    alice, bob = make_players(django_user_model)
    return in_progress(alice, bob).id, reviewed(alice, bob, monkeypatch).id


def each_screen(page: Page):
    for width, height in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            yield f"{width}-{scheme}"


def check(page: Page, name: str, screen: str) -> None:
    page.mouse.move(0, 0)
    shoot(page, f"{name}-{screen}")
    assert_accessible(page, f"{name} at {screen}")


def test_the_game_as_a_player_and_a_spectator(games, chromium_path, live_url):
    active, _ = games
    with devices(chromium_path, (1366, 1366)) as (player, spectator):
        sign_in(player, live_url)
        for screen in each_screen(player):
            player.goto(f"{live_url}/g/{active}")
            expect(player.locator("[data-status-line]")).to_have_text("Your turn")
            check(player, "game-player", screen)
            player.locator("[data-controls] button[data-card=L]").press("Enter")
            expect(player.get_by_role("heading", name="Corridor Lockdown")).to_be_visible()
            check(player, "game-player-card", screen)
        for screen in each_screen(spectator):
            spectator.goto(f"{live_url}/g/{active}")
            expect(spectator.locator("[data-connection]")).to_have_text("Live")
            check(spectator, "game-spectator", screen)
        assert player.errors == [] and spectator.errors == []  # type: ignore[attr-defined]


def test_the_finished_game_its_replay_and_its_review(games, chromium_path, live_url):
    _, done = games
    with devices(chromium_path, (1366,)) as (page,):
        sign_in(page, live_url)
        for screen in each_screen(page):
            page.goto(f"{live_url}/g/{done}")
            expect(page.locator("[data-audit]")).to_be_visible()
            check(page, "game-over", screen)
            page.goto(f"{live_url}/g/{done}/replay")
            expect(page.locator(".replay-controls [data-ply]")).to_contain_text("Turn")
            check(page, "replay", screen)
            page.goto(f"{live_url}/g/{done}/review")
            expect(page.locator("[data-marked]").first).to_be_visible()
            check(page, "review", screen)
        assert page.errors == []  # type: ignore[attr-defined]
