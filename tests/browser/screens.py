"""Screenshots of the pages the browser tests visit, kept as CI artifacts.

`shoot(page: Page, name)` saves a full-page PNG as `<dir>/<name>.png`, where `<dir>` is
`$SCREENSHOTS_DIR` or, by default, `artifacts/screenshots/` at the repository's root
(git-ignored; the README names it). Names say page, width and theme, e.g.
`game-player-390-dark`; a later run overwrites the same names.

`browser(chromium_path)` and `new_page(browser, 390 | 1366, color_scheme)` open the two
screens the site is tested on: a phone (390×844) and a laptop (1366×900).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]


def screenshots_dir() -> Path:
    configured = os.environ.get("SCREENSHOTS_DIR")
    folder = Path(configured) if configured else ROOT / "artifacts" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shoot(page: Page, name: str, full_page: bool = True) -> Path:
    """Save a screenshot of the page as it is now and return its path."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", name):
        raise ValueError(f"screenshot names are lowercase words with - or _: {name!r}")
    path = screenshots_dir() / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


# --- the two screens, a context per screen and colour scheme ------------------------------

SCREENS = {390: {"width": 390, "height": 844}, 1366: {"width": 1366, "height": 900}}


@contextmanager
def browser(chromium_path: str) -> Iterator[Browser]:
    """One Chromium for a test that needs several contexts (players, screens, schemes)."""
    from tests.browser.conftest import CHROMIUM_ARGS

    with sync_playwright() as playwright:
        opened = playwright.chromium.launch(executable_path=chromium_path, headless=True,
                                            args=CHROMIUM_ARGS)
        try:
            yield opened
        finally:
            opened.close()


def new_page(opened: Browser, screen: int, color_scheme: str = "dark") -> Page:
    """A fresh context (its own cookies) on `screen` (390 or 1366), the system preferring
    `color_scheme`; the page collects its script errors in `page.errors`."""
    context = opened.new_context(viewport=SCREENS[screen],  # type: ignore[arg-type]
                                 color_scheme=color_scheme)  # type: ignore[arg-type]
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.errors = errors  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page
