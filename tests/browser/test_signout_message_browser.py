"""Signing out says so: the next page shows "You have signed out.", and a game page open in
another tab, whose socket the server closes, says it no longer plays for you, and still
says so once it has reloaded as a spectator's page."""

import pytest
from playwright.sync_api import expect

from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.games.support import new_game


@pytest.fixture
def game_id(django_user_model):
    marta, kofi = (django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD)
                   for n in ("marta", "kofi"))
    return new_game(marta, kofi).id


def test_signing_out_is_said_on_both_tabs(game_id, chromium_path, live_url):
    with browser(chromium_path) as opened:
        game_tab = new_page(opened, 390)
        sign_in(game_tab, live_url, "marta@example.com", name="marta")
        game_tab.goto(f"{live_url}/g/{game_id}")
        expect(game_tab.locator("[data-connection]")).to_have_text("Live")
        other = game_tab.context.new_page()
        other.goto(live_url + "/")
        other.get_by_role("button", name="Sign out").click()
        expect(other.get_by_role("status").filter(has_text="You have signed out.")).to_be_visible()
        said = "You signed out, so this page no longer plays for you"
        expect(game_tab.locator("[data-message]")).to_contain_text(said)
        # Its socket comes back as a spectator's, and the page reloads as one: it still
        # says why (that reload once emptied the line while a test read it).
        game_tab.wait_for_function("() => window.liveGame && window.liveGame.state.viewer === null")
        expect(game_tab.locator("[data-message]")).to_contain_text(said)
        shoot(other, "signed-out-390-dark")
        shoot(game_tab, "signed-out-game-tab-390-dark")  # the reloaded spectator's page
        assert game_tab.errors == []
