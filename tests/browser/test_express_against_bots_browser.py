"""One person against ExpressBots from the lobby (issue #26, docs/bot-games.md), in Chromium
at 390 and 1366 px, dark and light: a guest opens the lobby's Cargo Express tab, fills
"Play against ExpressBots" (2 players, Bot 1 Easy, Seat 1, untimed) and lands on the game
page, which says "Casual, against ExpressBot Easy"; they pick a character and commit a
stack through the page; the log of the round tells it and is the same after a reload (the
server's `state.log`); axe finds nothing on the lobby or the game page; nothing scrolls
sideways. Screenshots express-bots-lobby-*, express-bots-game-*. The bot plays
in-process (`eager`)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.axe import assert_accessible
from tests.browser.screens import browser, new_page, shoot
from tests.games.bot_support import eager

__all__ = ["eager"]


def state(page: Page) -> dict[str, Any]:
    return page.evaluate("() => window.liveGame.state")


def no_sideways_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth"
                         " <= document.documentElement.clientWidth")


def test_a_guest_starts_a_game_against_an_expressbot_and_picks_and_plans(
        eager, chromium_path, live_url):
    failures: list[str] = []
    with browser(chromium_path) as opened:
        for screen, theme in ((390, "light"), (1366, "dark"), (390, "dark"), (1366, "light")):
            page = new_page(opened, screen, color_scheme=theme, motion=False)
            page.goto(f"{live_url}/play/?game=cargo-express")
            form = page.get_by_role("form", name="Play against ExpressBots")
            expect(form).to_be_visible()
            expect(page.get_by_role("heading", name="Play CargoBot")).to_have_count(0)
            try:
                assert_accessible(page, f"lobby with ExpressBots, {theme}, {screen}")
            except AssertionError as failure:
                failures.append(str(failure))
            assert no_sideways_scroll(page), ("lobby", screen)
            shoot(page, f"express-bots-lobby-{screen}-{theme}")
            form.get_by_role("group", name="Players").get_by_role("radio", name="2").check()
            form.get_by_role("group", name="Bot 1", exact=True).get_by_role(
                "radio", name="Easy").check()
            form.get_by_role("group", name="You sit at").get_by_role(
                "radio", name="Seat 1").check()
            form.get_by_role("group", name="Your clock").get_by_role(
                "radio", name="Untimed").check()
            form.get_by_role("button", name="Play against ExpressBots").click()

            page.wait_for_url("**/g/*")
            expect(page.locator("[data-connection]")).to_have_text("Live")
            expect(page.locator("[data-game-facts]")).to_contain_text(
                "Casual, against ExpressBot Easy")
            expect(page.locator(".xp-space")).to_have_count(14)
            assert state(page)["viewer"] == 0
            assert [s["name"] for s in state(page)["seats"]][1] == "ExpressBot Easy"

            # The first pick (the bot may have picked first, as the seed's stationmaster).
            controls = page.locator("[data-controls]")
            pick = controls.locator("[data-pick]:not(:disabled)").first
            expect(pick).to_be_visible()
            picked = pick.get_attribute("data-pick")
            pick.click()
            # Planning: three usable cards, committed (the bot plans at once).
            expect(controls.locator(".xp-card").first).to_be_visible()
            for i in range(3):
                controls.locator(".xp-card:not(.is-unusable)").nth(i).click()
            controls.locator("[data-commit]").click()
            expect(page.locator("[data-mine]")).to_contain_text("(top first)")
            # Until the table waits on the guest again (the bot has played what it may),
            # and the page has drawn it.
            page.wait_for_function("() => window.liveGame.state.phase !== 'plan'"
                                   " && window.liveGame.state.acting.includes(0)")
            page.wait_for_timeout(1500)
            log = page.locator("[data-log]")
            expect(log).not_to_contain_text("Nothing yet")
            told = log.locator("li").all_inner_texts()
            assert picked is not None
            try:
                assert_accessible(page, f"game against ExpressBot Easy, {theme}, {screen}")
            except AssertionError as failure:
                failures.append(str(failure))
            assert no_sideways_scroll(page), ("game", screen)
            shoot(page, f"express-bots-game-{screen}-{theme}")
            # A reload tells the same log: the server's, built for this seat.
            page.reload()
            expect(page.locator("[data-connection]")).to_have_text("Live")
            expect(page.locator("[data-log] li")).to_have_text(told)
            assert page.errors == []  # type: ignore[attr-defined]
            page.context.close()
    assert not failures, "\n\n".join(failures)
