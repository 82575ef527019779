"""The two screens browser tests look at (a phone, 390×844, and a laptop, 1366×900), a
browser context per screen and colour scheme, and screenshots kept under
`artifacts/screenshots/` (SCREENSHOTS_DIR overrides it; CI keeps the folder as an
artifact, README.md "Screenshots")."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from tests.browser.conftest import CHROMIUM_ARGS

SCREENS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 900}}
ROOT = Path(__file__).resolve().parents[2]


def screenshot_dir() -> Path:
    folder = Path(os.environ.get("SCREENSHOTS_DIR") or ROOT / "artifacts" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shot(page: Page, name: str, full_page: bool = True) -> Path:
    path = screenshot_dir() / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


@contextmanager
def browser(chromium_path: str) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        opened = playwright.chromium.launch(executable_path=chromium_path, headless=True,
                                            args=CHROMIUM_ARGS)
        try:
            yield opened
        finally:
            opened.close()


def new_page(opened: Browser, screen: str, color_scheme: str = "dark") -> Page:
    """A fresh context (its own cookies) on `screen`, the system preferring `color_scheme`;
    the page collects its script errors in `page.errors`."""
    context = opened.new_context(viewport=SCREENS[screen], color_scheme=color_scheme)  # type: ignore[arg-type]
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))  # type: ignore[attr-defined]
    return page
