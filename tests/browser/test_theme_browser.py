"""Light and dark in a browser, at 390×844 and 1366×900: with no choice the page follows the
system; the header's switch changes the theme at once and the choice survives a reload
(the server renders it from the cookie, so there is no flash of the other theme)."""

import pytest
from playwright.sync_api import expect

from tests.browser.screens import SCREENS, browser, new_page, shoot

DARK_BG = "rgb(13, 19, 33)"
LIGHT_BG = "rgb(243, 245, 250)"


def background(page) -> str:
    return page.evaluate("getComputedStyle(document.documentElement).backgroundColor")


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_switch_is_remembered_across_a_reload(chromium_path, live_url, screen):
    with browser(chromium_path) as opened:
        page = new_page(opened, screen, color_scheme="light")
        page.goto(live_url + "/")
        assert background(page) == LIGHT_BG  # the system's preference, no choice made
        switch = page.locator("[data-theme-switch]")
        expect(switch).to_have_accessible_name("Switch to dark theme")
        shoot(page, f"home-signed-out-{screen}-light")
        switch.click()
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        assert background(page) == DARK_BG
        expect(switch).to_have_accessible_name("Switch to light theme")

        # Every later page arrives dark from the server: the attribute is in its HTML.
        served = page.reload()
        assert served is not None and '<html lang="en" data-theme="dark">' in served.text()
        assert background(page) == DARK_BG
        page.goto(live_url + "/how-to-play")
        assert background(page) == DARK_BG
        shoot(page, f"howto-{screen}-dark")

        page.locator("[data-theme-switch]").click()
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
        assert background(page) == LIGHT_BG
        assert page.errors == []


def test_the_system_preference_applies_without_a_choice(chromium_path, live_url):
    with browser(chromium_path) as opened:
        for scheme, colour in (("dark", DARK_BG), ("light", LIGHT_BG)):
            page = new_page(opened, 1366, color_scheme=scheme)
            page.goto(live_url + "/play/")
            assert background(page) == colour
            expect(page.locator("[data-theme-switch]")).to_have_accessible_name(
                f"Switch to {'light' if scheme == 'dark' else 'dark'} theme")
            shoot(page, f"lobby-signed-out-1366-{scheme}")


def test_the_switch_works_without_the_script(chromium_path, live_url):
    with browser(chromium_path) as opened:
        context = opened.new_context(viewport=SCREENS[390], java_script_enabled=False,
                                     color_scheme="dark")
        page = context.new_page()
        page.goto(live_url + "/how-to-play")
        page.locator("[data-theme-switch]").click()  # posts "light" and comes back
        expect(page).to_have_url(live_url + "/how-to-play")
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
