"""Several devices of one member in a browser test: one Chromium, a fresh context per
device (desktop 1366 px, phone 390 px), each page collecting its script errors in
`page.errors`; and signing a member in."""

from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Page, expect

from tests.browser import shared

PASSWORD = "a-long-cargo-pass"


@contextmanager
def devices(chromium_path: str, widths: tuple[int, ...] = (1366, 390)) -> Iterator[list[Page]]:
    with shared.lease(chromium_path) as browser:
        pages = []
        for width in widths:
            page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
            page.set_default_timeout(15_000)
            page.errors = []  # type: ignore[attr-defined]
            page.on("pageerror", lambda error, page=page: page.errors.append(str(error)))
            pages.append(page)
        yield pages


def sign_in(page: Page, base: str, login: str = "alice@example.com",
            password: str = PASSWORD, name: str = "alice") -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Login").fill(login)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("navigation", name="Main")).to_contain_text(name)
