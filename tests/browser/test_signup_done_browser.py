"""The page after sign-up (issue #42, point 4) in Chromium, at 390 and 1366 px in both
themes: it says the member can sign in now, that the link was sent by email and, in
development (mail printed, not sent), that it is in the `make run` terminal; the sign-in
link works at once, before the address is confirmed. axe clean; screenshots kept."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.screens import browser, new_page, shoot

PASSWORD = "a-long-cargo-pass"


@pytest.fixture
def printed_mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"


@pytest.mark.parametrize("screen", [390, 1366])
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_page_after_sign_up(printed_mail, chromium_path, live_url, screen, theme):
    with browser(chromium_path) as opened:
        page = new_page(opened, screen, color_scheme=theme)
        page.goto(live_url + "/accounts/signup/")
        page.locator('input[name="username"]').fill("newcomer")
        page.locator('input[name="email"]').fill("newcomer@example.com")
        page.locator('input[name="password1"]').fill(PASSWORD)
        page.locator('input[name="password2"]').fill(PASSWORD)
        page.get_by_role("button", name="Sign Up").click()
        main = page.locator("main")
        expect(main.get_by_role("heading", level=1)).to_have_text("Check your email")
        expect(main).to_contain_text("You can sign in now")
        expect(main).to_contain_text("We sent a confirmation link to the email address you gave")
        expect(main).to_contain_text("printed in the terminal running make run")
        assert_accessible(page, f"after sign-up, {theme}, {screen}")
        shoot(page, f"signup-done-{screen}-{theme}")
        main.get_by_role("link", name="Sign in").click()
        page.get_by_label("Login").fill("newcomer")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign In").click()
        expect(page.get_by_role("navigation", name="Main")).to_contain_text("newcomer")
        assert page.errors == []  # type: ignore[attr-defined]
