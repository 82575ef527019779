"""A Cargo Express leaver's page becomes a spectator's (issue #42, point 2): carol resigns at
a table of three on her page (1366 px dark) while her second page (390 px light) stays
open; a Medium bot plays her seat on. Both her pages turn into what a spectator sees:
no "Only you see this" panel (the seat's stack and hand are the bot's now), no controls,
no Resign button, `viewer` null; the others play on and her pages follow without a script
error. axe finds nothing; screenshots express-leaver-*. Bots play in-process (`eager`)."""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.actors import Actor
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.games.bot_support import eager

__all__ = ["eager"]
NAMES = ("alice", "bob", "carol")


@pytest.fixture
def table(eager, live_url, django_user_model):
    users = [django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in NAMES]
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(user) for user in users])
    return game.id, users


def in_thread(work):
    """Database work off Playwright's event loop (Django refuses a query there)."""
    out: list = []
    worker = threading.Thread(target=lambda: out.append(work()))
    worker.start()
    worker.join(60)
    assert out, "the database work did not finish"
    return out[0]


def others_play(game, users, decisions=6):
    """alice and bob decide (the Easy bot's choice from their own views); the bot plays
    carol's seat when it acts (in-process). The game's ply after."""
    for _ in range(decisions):
        row = services.get_game(game)
        lg = services.live(row)
        seat = next(s for s in lg.acting() if s in (0, 1))
        token = row.kind.bot_decision(lg.redacted(seat), seat, "easy", 5)
        services.apply_turn(game, actor=Actor.member(users[seat]), ply=lg.sequence(seat),
                            token=token)
    return services.get_game(game).ply


def viewer(page: Page):
    return page.evaluate("() => window.liveGame.state.viewer")


def test_a_leavers_pages_become_a_spectators(table, chromium_path, live_url):
    game, users = table
    with browser(chromium_path) as opened:
        wide = new_page(opened, 1366, "dark", motion=False)
        phone = new_page(opened, 390, "light", motion=False)
        for page in (wide, phone):
            sign_in(page, live_url, "carol@example.com", name="carol")
            page.goto(f"{live_url}/g/{game}")
            expect(page.locator("[data-connection]")).to_have_text("Live")
            expect(page.locator("[data-mine]")).to_be_visible()  # her seat's own view
            assert viewer(page) == 2
        wide.locator("[data-action=resign]").click()
        wide.locator("dialog").get_by_role("button", name="Resign").click()
        for page in (wide, phone):  # both reload as a spectator's page
            expect(page.locator("[data-mine]")).to_be_hidden()
            expect(page.locator("[data-connection]")).to_have_text("Live")
            expect(page.locator("[data-action=resign]")).to_be_hidden()
            expect(page.locator("[data-controls]")).to_be_hidden()
            assert viewer(page) is None
        stand_in = in_thread(lambda: services.get_game(game).seat_list[2].stand_in)
        assert stand_in == "medium"
        ply = in_thread(lambda: others_play(game, users))
        for page, name in ((wide, "express-leaver-1366-dark"),
                           (phone, "express-leaver-390-light")):
            page.wait_for_function(f"() => window.liveGame.state.ply >= {ply}")
            expect(page.locator("[data-mine]")).to_be_hidden()
            assert viewer(page) is None
            state = page.evaluate("() => window.liveGame.state")
            assert all(area["hand"] is None and area["plan"] is None
                       for area in state["areas"])
            shoot(page, name)
            assert_accessible(page, name)
            assert page.errors == []  # type: ignore[attr-defined]
