"""Cargo Express's view drawn from real states (the kind's own, tests/browser/express_real.py)
on the test-only harness page: each phase offers the legal decisions the kind lists, and
sends them; another seat's secrets never show; axe; screenshots express-real-*."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import express_real as xr
from tests.browser.axe import assert_accessible
from tests.browser.screens import browser, new_page, shoot
from tests.browser.test_express_view_browser import mount, no_overflow, sent

pytestmark = pytest.mark.django_db(transaction=True)


def seat0_acting(phase):
    return lambda g: xr.phase(g) == phase and 0 in g.acting()


def test_real_states_of_every_phase(chromium_path, live_url):
    game = xr.new_game(3)
    with browser(chromium_path) as opened:
        page = new_page(opened, 1366, "dark")
        phone = new_page(opened, 390, "light")

        xr.play_until(game, seat0_acting("pick"))
        state = xr.state_for(game, 0)
        mount(page, live_url, state)
        expect(page.locator("[data-pick]")).to_have_count(len(state["legal"]["picks"]))
        expect(page.locator(".xp-space")).to_have_count(14)
        expect(page.locator(".xp-loco")).not_to_have_count(0)
        page.locator("[data-pick]").first.click()
        assert sent(page) == [state["legal"]["picks"][0]]

        xr.play_until(game, seat0_acting("plan"))
        state = xr.state_for(game, 0)
        mount(page, live_url, state)
        expect(page.locator(".xp-card")).to_have_count(9)
        for card in ("A1", "A2", "A3"):
            page.locator(f"[data-card={card}]").click()
        page.locator("[data-commit]").click()
        assert sent(page) == ["A1A2A3"]
        shoot(page, "express-real-plan-1366-dark")
        assert_accessible(page, "real plan 1366 dark")

        # seat 0 commits; the others' view says only that it is ready
        game.apply(0, "A1A2A3")
        for viewer in (1, None):
            mount(page, live_url, xr.state_for(game, viewer))
            cards = page.locator(".xp-seat-panel[data-seat='0'] [data-cards]")
            expect(cards).to_contain_text("ready: 3 face down")
            assert "A1" not in cards.inner_text()
        mount(page, live_url, xr.state_for(game, 0))
        expect(page.locator("[data-mine]")).to_contain_text("A1, A2, A3")

        xr.play_until(game, seat0_acting("turn"))
        state = xr.state_for(game, 0)
        for p, screen in ((page, 1366), (phone, 390)):
            mount(p, live_url, state)
            no_overflow(p)
            shoot(p, f"express-real-turn-{screen}-{'dark' if screen == 1366 else 'light'}")
            assert_accessible(p, f"real turn {screen}")
        moves = [m for m in state["legal"].get("moves", []) if m.get("end") is not None]
        if moves:
            expect(page.locator(".xp-space-inner.is-target")).not_to_have_count(0)
            first = moves[0]
            page.locator(f"[data-space='{first['end']}'] button").click()
            if len([m for m in moves if m["end"] == first["end"]]) > 1:
                page.locator(f"[data-path='{first['path']}']").click()
            assert sent(page) == [first["path"]]
            game.apply(0, sent(page)[0])
            state = xr.state_for(game, 0)
            mount(page, live_url, state)
            for step in state["legal"].get("steps", []):
                expect(page.locator(f"[data-step='{step}']")).to_have_count(1)
            if state["legal"].get("end"):
                expect(page.locator("[data-step=end]")).to_be_visible()
            if "s" in state["legal"].get("steps", []):  # sign: the two cards, to the signer
                game.apply(0, "s")
                state = xr.state_for(game, 0)
                mount(page, live_url, state)
                for token in state["legal"]["sign"]:
                    expect(page.locator(f"[data-step={token}]")).to_be_visible()
                expect(page.locator("[data-mine]")).to_contain_text(state["drawn"][0])
                assert xr.state_for(game, 1)["drawn"] is None
                assert xr.state_for(game, None)["drawn"] is None
        for viewer in (1, None):  # no one else sees seat 0's stack
            mount(page, live_url, xr.state_for(game, viewer))
            assert xr.state_for(game, viewer)["areas"][0]["plan"] is None

        xr.play_until(game, lambda g: xr.phase(g) == "swap")
        seat = game.acting()[0]
        state = xr.state_for(game, seat)
        mount(page, live_url, state)
        swaps = state["legal"]["swaps"]
        expect(page.locator(".xp-space-inner.is-target")).to_have_count(len(swaps))
        page.locator(f"[data-space='{swaps[0]['space']}'] button").click()
        assert sent(page) == [swaps[0]["token"]]

        xr.play_until(game, lambda g: g.over)
        state = xr.state_for(game, None)
        for p, screen in ((page, 1366), (phone, 390)):
            mount(p, live_url, state)
            expect(p.locator(".xp-scores tbody tr")).to_have_count(3)
            no_overflow(p)
            shoot(p, f"express-real-over-{screen}-{'dark' if screen == 1366 else 'light'}")
            assert_accessible(p, f"real over {screen}")
        assert page.errors == [] and phone.errors == []  # type: ignore[attr-defined]
