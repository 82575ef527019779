"""An accepted rematch takes both players, and a spectator, to the new game, at 390×844 and
1366×900: one offers, the other accepts, and each page goes to the new game by itself (the `rematch`
frame both sockets get carries its URL). A spectator's page shows "Watching" and the count,
which the players' pages see change live."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.games.support import member, new_game


@pytest.fixture
def finished(django_user_model):
    users = {name: django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in ("alice", "bob", "carol")}
    game = new_game(users["alice"], users["bob"], size=5)
    services.resign(game.id, actor=member(users["alice"]))
    return game.id


@pytest.mark.parametrize("alice_screen, bob_screen", [(1366, 390), (390, 1366)])
def test_both_players_go_to_the_rematch(finished, chromium_path, live_url, alice_screen,
                                        bob_screen):
    with browser(chromium_path) as opened:
        alice = new_page(opened, alice_screen)
        bob = new_page(opened, bob_screen, color_scheme="light")
        sign_in(alice, live_url, "alice@example.com", name="alice")
        sign_in(bob, live_url, "bob@example.com", name="bob")
        carol = new_page(opened, bob_screen)  # a spectator goes along (issue #27, item 14)
        sign_in(carol, live_url, "carol@example.com", name="carol")
        for page in (alice, bob, carol):
            page.goto(f"{live_url}/g/{finished}")
            expect(page.locator("[data-connection]")).to_have_text("Live")
        expect(alice).to_have_title("alice vs bob · Cargo Connect")

        alice.locator("button[data-action=rematch]").click()
        expect(bob.locator("[data-rematch]")).to_contain_text("alice offers a rematch")
        bob.locator("button[data-action=rematch]").click()
        new_url = re.compile(rf"{re.escape(live_url)}/g/(?!{finished})[0-9A-Za-z]{{10}}$")
        for page in (alice, bob, carol):
            expect(page).to_have_url(new_url)
        assert alice.url == bob.url == carol.url
        expect(carol.locator("[data-status-line]")).to_contain_text("to move")
        # Colours swapped: bob is Blue now, and it is his turn.
        expect(bob).to_have_title("Your turn · bob vs alice · Cargo Connect")
        expect(alice).to_have_title("bob vs alice · Cargo Connect")
        expect(bob.locator("[data-status-line]")).to_have_text("Your turn")
        shoot(alice, f"rematch-started-{alice_screen}-dark")
        shoot(bob, f"rematch-started-{bob_screen}-light")
        assert alice.errors == [] and bob.errors == [] and carol.errors == []


def test_a_spectator_is_labelled_and_counted_live(finished, chromium_path, live_url):
    with browser(chromium_path) as opened:
        alice = new_page(opened, 1366)
        sign_in(alice, live_url, "alice@example.com", name="alice")
        alice.goto(f"{live_url}/g/{finished}")
        count = alice.locator("[data-spectators]")
        expect(count).to_have_text("0 spectators")
        expect(alice.locator(".watching-label")).to_have_count(0)

        carol = new_page(opened, 390, color_scheme="light")
        sign_in(carol, live_url, "carol@example.com", name="carol")
        carol.goto(f"{live_url}/g/{finished}")
        expect(carol.locator(".watching-label")).to_have_text("Watching")
        expect(count).to_have_text("1 spectator")
        visitor = new_page(opened, 390)
        visitor.goto(f"{live_url}/g/{finished}")
        expect(count).to_have_text("2 spectators")
        expect(carol.locator("[data-spectators]")).to_have_text("2 spectators")
        shoot(carol, "rematch-game-spectator-390-light")
        shoot(alice, "rematch-game-player-1366-dark")
        visitor.context.close()
        expect(count).to_have_text("1 spectator")
        assert alice.errors == [] and carol.errors == []
