"""Berserk on an arena game's own page in a real browser (docs/tournaments-arena.md,
"Berserk on the game page"): both players of a fresh arena game see their own Berserk
button (390 and 1366 px, light and dark, axe clean, no sideways scroll); Blue berserks by
keyboard on the game page: her button goes, her clock shows 2:30, and the Berserk mark
appears beside her clock on her page, on Orange's (whose own button stays) and on a
spectator's, over the game's socket, without a reload. Screenshots arena-game-*."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games import services as games
from tournaments import arenas, services
from tournaments.models import Pairing

PASSWORD = "a-long-cargo-pass"


def _game() -> Pairing:
    User = get_user_model()
    people = [User.objects.create_user(name, f"{name}@example.com", PASSWORD)
              for name in ("alice", "bob", "carol")]
    t = services.create_tournament(name="Berserk Arena", game_type="cargo-connect", rounds=0,
                                   system="arena", duration=60, time_control="5+3",
                                   options={"size": 5},
                                   starts_at=timezone.now() - dt.timedelta(minutes=1))
    for member in people[:2]:
        services.join(t, member)
    arenas.pair(t.id)
    return Pairing.objects.select_related("blue__user", "orange__user").get(tournament=t)


def test_berserk_on_the_game_page_reaches_both_players_and_a_spectator(
        chromium_path, live_url):
    from tests.browser.axe import assert_accessible
    from tests.browser.devices import sign_in
    from tests.browser.screens import assert_fits_the_width, browser, new_page, shoot

    pairing = _game()
    blue, orange = pairing.blue.user.username, pairing.orange.user.username
    url = f"{live_url}/g/{pairing.game_id}"
    with browser(chromium_path) as opened:
        pages = {}
        for name, width in ((blue, 1366), (orange, 390), ("carol", 1366)):
            page = new_page(opened, width, "light")
            sign_in(page, live_url, f"{name}@example.com", PASSWORD, name=name)
            page.goto(url)
            expect(page.locator("[data-connection]")).to_have_attribute("data-status", "live")
            pages[name] = page
        for name in (blue, orange):
            page = pages[name]
            width = page.viewport_size["width"]
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                button = page.get_by_role("button", name="Berserk")
                expect(button).to_be_visible()
                expect(button).to_have_accessible_description(
                    "Berserk: play on half your clock with no increment, for one more "
                    "point if you win. Only before your first move.")
                assert_fits_the_width(page)
                assert_accessible(page, f"arena game {width} {scheme}")
                shoot(page, f"arena-game-{width}-{scheme}")
        expect(pages["carol"].get_by_role("button", name="Berserk")).to_have_count(0)

        page = pages[blue]
        page.get_by_role("button", name="Berserk").focus()
        page.keyboard.press("Enter")  # by keyboard
        expect(page.get_by_role("button", name="Berserk")).to_have_count(0)
        expect(page.locator('.clock[data-seat="0"] .clock-time')).to_have_text("2:30")
        for name in (blue, orange, "carol"):  # the mark, live, on every page
            mark = pages[name].locator('.clock[data-seat="0"] .seat-mark')
            expect(mark).to_be_visible()
            expect(mark).to_contain_text("Berserk")
            expect(pages[name].locator('.clock[data-seat="1"] .seat-mark')).to_have_count(0)
        expect(pages[orange].get_by_role("button", name="Berserk")).to_be_visible()
        for name, page in pages.items():
            width = page.viewport_size["width"]
            page.emulate_media(color_scheme="dark" if name == orange else "light")
            assert_accessible(page, f"arena game after berserk ({name})")
            assert page.errors == []  # type: ignore[attr-defined]
        shoot(pages[orange], "arena-game-berserked-390-dark")
        shoot(pages["carol"], "arena-game-berserked-1366-light")
    # The database, off Playwright's event loop once the browser is closed.
    assert games.get_game(pairing.game_id).clock["left"][0] == 150_000
    pairing.refresh_from_db()
    assert (pairing.blue_berserk, pairing.orange_berserk) == (True, False)
