"""The flash messages pass axe (issue #42, point 17): every page that shows one, at 390
and 1366 px in both themes, with the message on screen: signed in, notification settings
saved, email confirmed and signed out. The messages are a list inside a status region
(templates/base.html); a role on the list itself took its items' list away (axe's serious
`listitem` and minor `aria-allowed-role`). 0 violations of any impact; each page is kept as
a screenshot."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot


@pytest.fixture
def confirm_key(django_user_model):
    """marta, with an address she has not confirmed yet: the link the email carries."""
    marta = django_user_model.objects.create_user("marta", "marta@example.com", PASSWORD)
    address = EmailAddress.objects.create(user=marta, email="marta@example.com",
                                          primary=True, verified=False)
    return EmailConfirmationHMAC(address).key


@pytest.mark.parametrize("screen", [390, 1366])
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_pages_with_a_message_have_no_axe_violations(confirm_key, chromium_path, live_url,
                                                     screen, theme):
    with browser(chromium_path) as opened:
        page = new_page(opened, screen, color_scheme=theme)
        failures: list[str] = []

        def check(name: str, words: str) -> None:
            status = page.get_by_role("status").filter(has_text=words)
            expect(status).to_be_visible()
            expect(status.get_by_role("listitem")).to_have_text(words)
            try:
                assert_accessible(page, f"{name}, {theme}, {screen}")
            except AssertionError as failure:  # every page is checked; all are reported
                failures.append(str(failure))
            shoot(page, f"message-{name}-{screen}-{theme}")

        sign_in(page, live_url, "marta@example.com", name="marta")
        check("signed-in", "Successfully signed in as marta.")
        page.goto(live_url + "/notifications/settings")
        page.get_by_role("button", name="Save").click()
        check("settings-saved", "Your notification settings are saved.")
        page.goto(f"{live_url}/accounts/confirm-email/{confirm_key}/")
        page.get_by_role("button", name="Confirm").click()
        check("email-confirmed", "You have confirmed marta@example.com.")
        page.goto(live_url + "/")
        page.get_by_role("button", name="Sign out").click()
        check("signed-out", "You have signed out.")
        assert page.errors == []  # type: ignore[attr-defined]
        assert not failures, "\n\n".join(failures)
