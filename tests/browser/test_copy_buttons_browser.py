"""Copy buttons: the challenge link on its page and the game record on the game page go to
the clipboard, and the button says so."""

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page
from tests.games.support import new_game


@pytest.fixture
def made(django_user_model):
    marta, kofi = (django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD)
                   for n in ("marta", "kofi"))
    link = services.create_challenge(marta, options={"size": 6}, public=False)
    return {"challenge": link.id, "game": new_game(marta, kofi).id}


@pytest.mark.parametrize("screen", [390, 1366])
def test_the_challenge_link_and_the_record_are_copied(made, chromium_path, live_url, screen):
    with browser(chromium_path) as opened:
        page = new_page(opened, screen)
        page.context.grant_permissions(["clipboard-read", "clipboard-write"],
                                       origin=live_url)
        sign_in(page, live_url, "marta@example.com", name="marta")
        page.goto(f"{live_url}/challenge/{made['challenge']}")
        page.get_by_role("button", name="Copy link").click()
        expect(page.get_by_role("button", name="Copied")).to_be_visible()
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == f"{live_url}/challenge/{made['challenge']}"

        page.goto(f"{live_url}/g/{made['game']}")
        page.get_by_role("button", name="Copy the record").click()
        expect(page.get_by_role("button", name="Copied")).to_be_visible()
        record = page.evaluate("navigator.clipboard.readText()")
        assert '[Size "5"]' in record and "marta" in record
        assert page.errors == []
