"""BOT accounts' marks in Chromium (issue #47; docs/api.md, "BOT accounts"): "BOT" before a
BOT account's name on its profile, in the lobby's rows, on a game's page (its seats, drawn
by script from the state), on the rankings board, in a tournament's entrants, and on the
page of a challenge it made to a person (who may accept or decline it there); the token
page's words for a BOT account and for a person. At 390 and 1366 px, both themes, no
sideways scrolling on a phone, axe clean; screenshots."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.browser.test_chat_browser import in_thread

SCREENS = ((390, "dark"), (1366, "light"), (390, "light"), (1366, "dark"))


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= \
        page.evaluate("window.innerWidth")


@pytest.fixture
def world(django_user_model, live_url):
    """A BOT account (cargo-bot) with five rated games against kofi, in a casual
    tournament that takes bots, seated at an open Cargo Express table of marta's, in a game
    going on against kofi, and the maker of a challenge to marta."""
    made: dict = {}

    def build() -> None:
        from api import bots
        from games import services
        from games.actors import Actor
        from tests.api.support import finished_game
        from tournaments import services as tournaments

        users = {name: django_user_model.objects.create_user(name, f"{name}@example.com",
                                                             PASSWORD)
                 for name in ("cargo-bot", "marta", "kofi")}
        bot, marta, kofi = users["cargo-bot"], users["marta"], users["kofi"]
        bots.upgrade(bot)
        for _ in range(5):
            finished_game(bot, kofi)
        made["game"] = services.create_game(
            game_type="cargo-connect", options={"size": 6},
            seats=[Actor.member(bot), Actor.member(kofi)]).id
        table = services.create_challenge(marta, game_type="cargo-express", options={},
                                          seats=4, time_control="10+5", rated=False)
        services.join_table(Actor.member(bot), table.id)
        made["challenge"] = services.create_challenge(bot, options={"size": 6},
                                                      invited=marta).id
        tournament = tournaments.create_tournament(
            name="Bots welcome", game_type="cargo-connect", rounds=3, rated=False,
            bots_allowed=True, starts_at=timezone.now() + dt.timedelta(hours=2),
            options={"size": 5})
        tournaments.join(tournament, bot)
        tournaments.join(tournament, kofi)
        made["tournament"] = tournament.id

    in_thread(build)
    return made


def test_a_bot_account_is_marked_on_every_page(world, chromium_path, live_url):
    pages = [
        ("profile", "/@/cargo-bot", "h1"),
        ("lobby", "/play/?game=cargo-express", ".seek-seats"),
        ("game", f"/g/{world['game']}", None),
        ("rankings", "/rankings/", "table.board"),
        ("tournament", f"/tournaments/{world['tournament']}/", ".entrants"),
    ]
    with browser(chromium_path) as opened:
        for screen, scheme in SCREENS[:2]:
            page = new_page(opened, screen, scheme)
            for name, path, where in pages:
                page.goto(live_url + path)
                if where is None:  # the game page's names are drawn by script
                    expect(page.locator("body")).to_contain_text("BOT cargo-bot")
                else:
                    expect(page.locator(where).first).to_contain_text("BOT")
                    expect(page.locator(where).first).to_contain_text("cargo-bot")
                no_sideways_scroll(page)
                assert_accessible(page, f"{name} with a BOT account, {screen}, {scheme}")
                shoot(page, f"bot-{name}-{screen}-{scheme}")
                assert page.errors == [], page.errors  # type: ignore[attr-defined]
            page.context.close()


def test_a_challenge_from_a_bot_and_the_token_pages(world, chromium_path, live_url):
    with browser(chromium_path) as opened:
        for screen, scheme in SCREENS[2:]:
            page = new_page(opened, screen, scheme)
            sign_in(page, live_url, "marta@example.com", name="marta")
            page.goto(f"{live_url}/challenge/{world['challenge']}")
            expect(page.locator("[data-invited]")).to_contain_text("A challenge to you")
            expect(page.locator("main")).to_contain_text("BOT cargo-bot")
            expect(page.get_by_role("button", name="Decline")).to_be_visible()
            expect(page.get_by_label("Decline, saying")).to_be_visible()
            no_sideways_scroll(page)
            assert_accessible(page, f"a challenge from a BOT account, {screen}, {scheme}")
            shoot(page, f"bot-challenge-{screen}-{scheme}")
            page.goto(f"{live_url}/accounts/tokens/")
            expect(page.locator("[data-bot-upgrade]")).to_contain_text(
                "POST /api/bot/account/upgrade")
            no_sideways_scroll(page)
            assert_accessible(page, f"tokens of a person, {screen}, {scheme}")
            page.context.close()
            page = new_page(opened, screen, scheme)
            sign_in(page, live_url, "cargo-bot@example.com", name="cargo-bot")
            page.goto(f"{live_url}/accounts/tokens/")
            expect(page.locator("[data-bot-account]")).to_contain_text("a BOT account")
            no_sideways_scroll(page)
            assert_accessible(page, f"tokens of a BOT account, {screen}, {scheme}")
            shoot(page, f"bot-tokens-{screen}-{scheme}")
            page.context.close()
