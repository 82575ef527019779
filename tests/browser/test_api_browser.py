"""The API's pages in Chromium (issue #47): the token settings page makes a token, shows it
once, and revokes it; the reference page lists every endpoint. Both at 390 and 1366 px, in
both themes, with no sideways scrolling on a phone; axe on every page; screenshots."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from api.models import AccessToken
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.browser.test_chat_browser import in_thread


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)


def live_tokens() -> list[tuple[str, bool]]:
    found: list[tuple[str, bool]] = []
    in_thread(lambda: found.extend(
        (name, revoked is not None)
        for name, revoked in AccessToken.objects.values_list("name", "revoked_at")))
    return found


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= \
        page.evaluate("window.innerWidth")


def test_making_and_revoking_a_token(bob, chromium_path, live_url):
    with browser(chromium_path) as opened:
        for screen, scheme in ((390, "dark"), (1366, "light")):
            page = new_page(opened, screen, scheme)
            sign_in(page, live_url, "bob@example.com", name="bob")
            page.goto(f"{live_url}/accounts/tokens/")
            name = f"script {screen}"
            page.get_by_label("Name", exact=True).fill(name)
            page.get_by_label("read: Read: profiles, games and their export, rankings, "
                              "puzzles, tournaments").check()
            page.get_by_role("button", name="Make the token").click()
            shown = page.locator("[data-token-value]")
            expect(shown).to_be_visible()
            token = shown.inner_text().strip()
            assert token.startswith("cgp_") and len(token) == 47
            no_sideways_scroll(page)
            assert_accessible(page, f"API tokens, made, {screen}, {scheme}")
            shoot(page, f"api-tokens-made-{screen}-{scheme}")
            page.goto(f"{live_url}/accounts/tokens/")
            assert token not in page.content()  # shown once only
            row = page.locator(".token-row", has_text=name)
            row.get_by_role("button", name=f"Revoke {name}").click()
            expect(page.locator(".token-row", has_text=name)).to_contain_text("revoked")
            assert (name, True) in live_tokens()
            no_sideways_scroll(page)
            shoot(page, f"api-tokens-revoked-{screen}-{scheme}")
            page.context.close()


def test_the_reference_page(bob, chromium_path, live_url):
    with browser(chromium_path) as opened:
        for screen, scheme in ((390, "light"), (1366, "dark")):
            page = new_page(opened, screen, scheme)
            page.goto(f"{live_url}/api/")
            described = page.request.get(f"{live_url}/api/openapi.json").json()
            operations = sum(1 for item in described["paths"].values() for method in item
                             if method in ("get", "post", "put", "patch", "delete"))
            assert operations >= 16  # the reads, the streams, board and bot play
            expect(page.locator(".api-op")).to_have_count(operations)  # each one described
            no_sideways_scroll(page)
            assert_accessible(page, f"API reference, {screen}, {scheme}")
            shoot(page, f"api-reference-{screen}-{scheme}")
            page.context.close()
