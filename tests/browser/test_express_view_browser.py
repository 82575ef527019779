"""Cargo Express's view (static/js/cargo-express/) drawn from hand-written states of every
phase (tests/browser/express_states.py) on the test-only harness page: what each viewer is
offered, what stays hidden, the tokens the controls send, axe, and screenshots at 390 and
1366 px in both themes (artifacts/screenshots/express-view-*)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser import express_states as xs
from tests.browser.axe import assert_accessible
from tests.browser.screens import browser, new_page, shoot

pytestmark = pytest.mark.django_db(transaction=True)


def mount(page: Page, base: str, state: dict[str, Any]) -> None:
    page.goto(base + "/static/express-harness.html")
    page.wait_for_function("() => window.harnessReady === true")
    page.evaluate("(state) => window.mountExpress(state)", state)


def sent(page: Page) -> list[str]:
    return page.evaluate("() => window.sentTokens")


def no_overflow(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert width <= 0, f"the page is {width}px wider than the screen"


def test_every_phase_offers_only_the_legal_decisions(chromium_path, live_url):
    with browser(chromium_path) as opened:
        page = new_page(opened, 1366)
        # Picking: one button per character still on the board; a click sends its key.
        mount(page, live_url, xs.pick(0))
        buttons = page.locator("[data-controls] [data-pick]")
        expect(buttons).to_have_count(5)
        page.locator("[data-pick=Lo]").click()
        assert sent(page) == ["Lo"]

        # Planning: the hand, unusable cards marked, a stack of three in order, commit.
        mount(page, live_url, xs.plan(0))
        expect(page.locator("[data-controls] .xp-card")).to_have_count(9)
        expect(page.locator(".xp-card.is-unusable")).to_have_count(5)
        for card in ("A2", "A1", "A3"):
            page.locator(f"[data-card={card}]").click()
        expect(page.locator("[data-stack]")).to_have_attribute("data-stack", "A2A1A3")
        page.locator("[data-commit]").click()
        assert sent(page) == ["A2A1A3"]
        seat_cards = page.locator(".xp-seat-panel [data-cards]")
        expect(seat_cards.nth(1)).to_contain_text("ready: 3 face down")
        expect(seat_cards.nth(2)).to_contain_text("planning")

        # A seat that committed sees its stack and may change it.
        mount(page, live_url, xs.plan(0, committed=True))
        expect(page.locator("[data-controls] h2")).to_have_text("Your stack is committed")
        expect(page.locator("[data-mine]")).to_contain_text("A2, A1, A3")
        expect(seat_cards.nth(0)).to_contain_text("9 cards, 3 committed")
        expect(page.locator("[data-commit]")).to_be_disabled()

        # A spectator during planning: no controls, no secrets.
        mount(page, live_url, xs.plan(None))
        expect(page.locator("[data-controls]")).to_be_hidden()
        expect(page.locator("[data-mine]")).to_be_hidden()
        assert "A2, A1, A3" not in page.locator("#game").inner_text()

        # A turn: destinations are buttons on the track; the actions from legal.steps.
        mount(page, live_url, xs.turn(0))
        targets = page.locator(".xp-space-inner.is-target")
        expect(targets).to_have_count(3)
        expect(page.locator("[data-step='^']")).to_be_visible()
        expect(page.locator("[data-step=s]")).to_be_visible()
        expect(page.locator("[data-step='o1=nww']")).to_be_hidden()  # folded away
        page.locator(".xp-reorders summary").click()
        expect(page.locator("[data-step='o1=nww']")).to_contain_text("brown, white, white")
        expect(page.locator("[data-step=end]")).to_have_count(0)
        page.locator("[data-space='6'] button").click()
        assert sent(page) == [">>"]

        # Signing: the two cards drawn, keep one.
        mount(page, live_url, xs.turn(0, signing=True))
        expect(page.locator("[data-step=s1]")).to_contain_text("contract 10")
        expect(page.locator("[data-step=s2]")).to_contain_text("contract 08")
        page.locator("[data-step=s2]").click()
        assert sent(page) == ["s2"]

        # Another seat during that turn: its own stack only, no controls.
        mount(page, live_url, xs.turn(1))
        expect(page.locator("[data-controls]")).to_be_hidden()
        expect(seat_cards.nth(0)).to_have_text("Cards2 face down; played A2")

        # The refit swap: the spaces that qualify are buttons on the track.
        mount(page, live_url, xs.swap(1))
        expect(page.locator(".xp-space-inner.is-target")).to_have_count(4)
        page.locator("[data-space='5'] button").click()
        assert sent(page) == ["R5"]

        # Over: the scoring broken down, the places, the seed.
        mount(page, live_url, xs.over(None))
        rows = page.locator(".xp-scores tbody tr")
        expect(rows).to_have_count(3)
        expect(rows.nth(1)).to_contain_text("-2 (13)")
        expect(page.locator(".xp-winners")).to_contain_text("alice (Seat 1)")
        expect(page.locator("[data-seed]")).to_contain_text("1234")
        assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("screen", [390, 1366])
def test_screens_and_axe(chromium_path, live_url, screen):
    with browser(chromium_path) as opened:
        for scheme in ("dark", "light"):
            page = new_page(opened, screen, scheme)
            for name, state in (("pick", xs.pick(0)), ("plan", xs.plan(0)),
                                ("turn", xs.turn(0)), ("swap", xs.swap(1)),
                                ("over", xs.over(None))):
                mount(page, live_url, state)
                no_overflow(page)
                if scheme == "dark" or name in ("plan", "turn", "over"):
                    shoot(page, f"express-view-{name}-{screen}-{scheme}")
                assert_accessible(page, f"express {name} {scheme} {screen}")
            assert page.errors == []  # type: ignore[attr-defined]


def test_the_keyboard_alone_decides(chromium_path, live_url):
    """Tab reaches every control; Enter and Space work them; focus is visible and stays in
    the controls when they are drawn again."""
    from tests.browser.keyboard import focused, press_until

    with browser(chromium_path) as opened:
        page = new_page(opened, 390, "light")
        mount(page, live_url, xs.plan(0))
        press_until(page, "Tab", lambda f: f.get("card") == "A2")
        outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("none", "")
        page.keyboard.press("Enter")  # A2, the first card of the stack
        assert focused(page).get("card") == "A2"  # drawn again, the focus kept
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Space")  # A1
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")  # A3
        expect(page.locator("[data-stack]")).to_have_attribute("data-stack", "A2A1A3")
        press_until(page, "Tab", lambda f: f.get("text") == "Commit stack")
        page.keyboard.press("Enter")
        assert sent(page) == ["A2A1A3"]

        # A turn: a destination on the track is a button, in words, reached by Tab.
        mount(page, live_url, xs.turn(0))
        now = press_until(page, "Tab", lambda f: "Move to space" in (f.get("text") or ""))
        assert "Space 2: tunnel I" in now["text"]
        page.keyboard.press("Enter")
        assert sent(page) == ["<<"]
        assert page.errors == []  # type: ignore[attr-defined]


def test_a_locomotive_walks_its_path_unless_motion_is_reduced(chromium_path, live_url):
    frame = {"events": [{"kind": "revealed", "seat": 0, "card": "A2", "usable": True},
                        {"kind": "moved", "seat": 0, "path": ">>", "spaces": [5, 6],
                         "start": 4, "end": 6, "driver": False}]}
    walk = """async (frame) => {
      const before = window.expressView.track.state;
      const seen = [];
      const done = window.expressView.animate(frame, before);
      for (let i = 0; i < 20; i++) {
        const at = document.querySelector(".xp-space .xp-loco.xp-seat-1")?.closest(".xp-space");
        if (at) seen.push(Number(at.dataset.space));
        await new Promise((r) => setTimeout(r, 60));
      }
      await done;
      return seen;
    }"""
    with browser(chromium_path) as opened:
        page = new_page(opened, 1366)
        mount(page, live_url, xs.turn(1))
        seen = page.evaluate(walk, frame)
        assert 5 in seen and 6 in seen, seen  # through space 5 to space 6
        expect(page.locator("[data-reveal]")).to_contain_text("alice (Seat 1) reveals A2")
        page.emulate_media(reduced_motion="reduce")
        mount(page, live_url, xs.turn(1))
        seen = page.evaluate(walk, frame)
        assert 5 not in seen, seen  # no walk: the next draw shows where it ended
        assert page.errors == []  # type: ignore[attr-defined]
