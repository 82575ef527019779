"""Words first on Cargo Express's buttons, the notation only as a small hint after them
(issue #42, point 14: "Move (<<*)", "Space 5 (<t>)", "So far: ^ · s"): a turn's
destinations say where and how ("To space 2", "2 spaces anticlockwise, one of them the
Driver's extra space"), the steps so far are a sentence, the actions keep their words. On
the test-only harness page (tests/browser/express_states.py), 390 and 1366 px, both themes,
axe clean; screenshots `express-words-*`."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import express_states as xs
from tests.browser.axe import assert_accessible
from tests.browser.screens import browser, new_page, shoot
from tests.browser.test_express_view_browser import mount

pytestmark = pytest.mark.django_db(transaction=True)


def a_turn_begun() -> dict:
    state = xs.turn(0)
    state["turn"]["steps"] = ["^"]
    state["legal"] = {
        "steps": ["<<*", "<t>", ">>", "u"],
        "moves": [{"path": "<<*", "end": 2, "driver": True},
                  {"path": "<t>", "end": 5, "driver": False},
                  {"path": ">>", "end": 6, "driver": False}],
        "end": True,
    }
    return state


@pytest.mark.parametrize("screen", [390, 1366])
def test_buttons_say_words_first_and_the_notation_as_a_hint(chromium_path, live_url, screen):
    with browser(chromium_path) as opened:
        for scheme in ("light", "dark"):
            page = new_page(opened, screen, scheme)
            mount(page, live_url, a_turn_begun())
            controls = page.locator("[data-controls]")
            driver = controls.locator("[data-path='<<*']")
            expect(driver).to_have_accessible_name(re.compile(
                r"^To space 2 2 spaces anticlockwise, one of them the Driver's extra space"
                r"\s+notation <<\*$"))
            tunnel = controls.locator("[data-path='<t>']")
            expect(tunnel).to_have_accessible_name(re.compile(
                r"^To space 5 1 space anticlockwise, through the tunnel, then 1 space "
                r"clockwise\s+notation <t>$"))
            # The words come before the notation, which is smaller.
            for button in (driver, tunnel):
                assert not re.match(r"\s*[<>t*^]", button.inner_text())
                words = button.locator("strong").evaluate(
                    "(n) => parseFloat(getComputedStyle(n).fontSize)")
                hint = button.locator(".xp-notation").evaluate(
                    "(n) => parseFloat(getComputedStyle(n).fontSize)")
                assert hint < words
            so_far = controls.locator("[data-so-far]")
            expect(so_far).to_contain_text("So far you attached the first car before moving.")
            expect(so_far.locator(".xp-notation code")).to_have_text("^")
            expect(controls.locator("[data-step=u]")).to_have_accessible_name(
                re.compile(r"^Upgrade the engine\s+notation u$"))
            expect(controls).not_to_contain_text("(<<*)")
            shoot(page, f"express-words-turn-{screen}-{scheme}")
            assert_accessible(page, f"express words {screen} {scheme}")
            driver.click()
            assert page.evaluate("() => window.sentTokens") == ["<<*"]
            assert page.errors == []  # type: ignore[attr-defined]
