"""Cargo Express outside its game page, in Chromium at 390 and 1366 px, dark and light
(issue #26): the lobby's Cargo Express form (players, a bot level per seat, its clocks), a
4-player table's row "Cargo Express · 4 players" and its page with Start now with bots, a
profile with a rated Express game (the rating card and the places panel) and the Cargo
Express board (nobody on it yet: one game). axe finds nothing, no page scrolls sideways;
screenshots express-lobby-*, express-table-*, express-profile-*, express-rankings-*."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import services
from games.actors import Actor
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.games.express_support import express_game, play_out


@pytest.fixture
def express(django_user_model):
    users = {name: django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in ("marta", "kofi", "ada")}
    members = list(users.values())
    game = express_game(members, rated=True, time_control="15+10")
    play_out(game.id, [Actor.member(u) for u in members], lambda fn, *a, **k: fn(*a, **k))
    table = services.create_challenge(users["marta"], game_type="cargo-express", seats=4,
                                      options={}, time_control="10+5", rated=False,
                                      bots={3: "hard"})
    services.join_table(Actor.member(users["kofi"]), table.id)
    return {"table": table.id}


def test_the_express_lobby_table_and_profile_on_both_screens_and_themes(
        express, chromium_path, live_url):
    failures = []
    with browser(chromium_path) as opened:
        for screen in (390, 1366):
            for theme in ("dark", "light"):
                page = new_page(opened, screen, color_scheme=theme)
                sign_in(page, live_url, "marta@example.com", name="marta")
                for name, path in (("lobby", "/play/?game=cargo-express"),
                                   ("table", f"/challenge/{express['table']}"),
                                   ("profile", "/@/marta"),
                                   ("rankings", "/rankings/?game=cargo-express")):
                    page.goto(live_url + path)
                    expect(page.locator("main")).to_be_visible()
                    try:
                        assert_accessible(page, f"express {name}, {theme}, {screen}")
                    except AssertionError as failure:
                        failures.append(str(failure))
                    assert page.evaluate("document.documentElement.scrollWidth"
                                         " <= document.documentElement.clientWidth"), (
                        name, screen)
                    shoot(page, f"express-{name}-{screen}-{theme}")
                page.goto(live_url + "/play/?game=cargo-express")
                seek = page.locator('form[action="/play/seek"]')  # beside Play against
                expect(seek.get_by_role("group", name="Players")).to_be_visible()  # ExpressBots
                expect(seek.get_by_role("group", name="Seat 4")).to_contain_text(
                    "ExpressBot Hard")
                expect(page.locator(f'.seek[data-id="{express["table"]}"] .seek-size')
                       ).to_have_text("Cargo Express · 4 players")
                expect(page.locator(f'.seek[data-id="{express["table"]}"] .seek-seats')
                       ).to_have_text("4 seats, 1 free: marta (host), kofi, open, ExpressBot Hard")
                page.goto(live_url + f"/challenge/{express['table']}")
                expect(page.get_by_role("button", name="Start now with bots")).to_be_visible()
                switch = page.get_by_role("navigation", name="Game type")
                page.goto(live_url + "/rankings/?game=cargo-express")
                expect(switch.locator('[aria-current="page"]')).to_have_text("Cargo Express")
                page.goto(live_url + "/@/marta")
                panel = page.locator('[data-game-type="cargo-express"]')
                expect(panel.locator("h2")).to_have_text("Cargo Express")
                expect(panel).to_contain_text("Favourite character")
                expect(page.locator('[data-rating="cargo-express-openskill"] h3')
                       ).to_have_text("Cargo Express: Rating")
                assert page.errors == []  # type: ignore[attr-defined]
                page.context.close()
    assert not failures, "\n\n".join(failures)
