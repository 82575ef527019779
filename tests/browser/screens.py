"""Screenshots of the pages the browser tests visit, kept as CI artifacts.

`shoot(page or locator, name)` saves a full-page (or the element's) JPEG as
`<dir>/<name>.jpg`, where `<dir>` is `$SCREENSHOTS_DIR` or, by default,
`artifacts/screenshots/` at the repository's root (git-ignored; the README names it). Names
say page, width and theme, e.g. `game-player-390-dark`; a later run overwrites the same
names. JPEG at quality 85, not PNG: Chromium's PNG encoding of a full page was a fifth of an
axe test's time (an eight-page run at 1366 px: 25.5 s with PNG, 21.5 s with JPEG, 21.8 s
with no screenshot, 2026-12-06), and a screenshot is for people to look at.

`browser(chromium_path)` and `new_page(browser, 390 | 1366, color_scheme)` open the two
screens the site is tested on: a phone (390×844) and a laptop (1366×900).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page

ROOT = Path(__file__).resolve().parents[2]
QUALITY = 85


def screenshots_dir() -> Path:
    configured = os.environ.get("SCREENSHOTS_DIR")
    folder = Path(configured) if configured else ROOT / "artifacts" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shoot(target: Page | Locator, name: str, full_page: bool = True,
          clip: dict[str, float] | None = None) -> Path:
    """Save a screenshot of the page (the whole page unless `full_page` is false, or the
    `clip` rectangle), or of one element, as it is now; return its path."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", name):
        raise ValueError(f"screenshot names are lowercase words with - or _: {name!r}")
    path = screenshots_dir() / f"{name}.jpg"
    if isinstance(target, Locator):
        target.screenshot(path=str(path), type="jpeg", quality=QUALITY)
    else:
        target.screenshot(path=str(path), full_page=full_page, type="jpeg", quality=QUALITY,
                          clip=clip)  # type: ignore[arg-type]
    return path


# --- the two screens, a context per screen and colour scheme ------------------------------

SCREENS = {390: {"width": 390, "height": 844}, 1366: {"width": 1366, "height": 900}}


@contextmanager
def browser(chromium_path: str) -> Iterator[Browser]:
    """The test process's Chromium for a test that needs several contexts (players,
    screens, schemes); the contexts it opened are closed at the block's end
    (tests/browser/shared.py)."""
    from tests.browser import shared

    with shared.lease(chromium_path) as opened:
        yield opened


def new_page(opened: Browser, screen: int, color_scheme: str = "dark",
             motion: bool = True) -> Page:
    """A fresh context (its own cookies) on `screen` (390 or 1366), the system preferring
    `color_scheme`; the page collects its script errors in `page.errors`.

    `motion=False`: the system prefers reduced motion, as a player may set it, and the game
    pages draw each turn frame at once (no locomotive walking its spaces at 240 ms a step,
    no marked spaces held 260 ms). For tests that drive Cargo Express games through the
    page and are not about the animation: a table played to round 2 took 18.7 s with it,
    11.7 s without (issue #43, session 32). test_express_live_browser.py and the Cargo
    Connect game tests keep the motion, so the animated path stays tested; these cover the
    reduced-motion one."""
    context = opened.new_context(viewport=SCREENS[screen],  # type: ignore[arg-type]
                                 color_scheme=color_scheme,  # type: ignore[arg-type]
                                 reduced_motion="no-preference" if motion else "reduce")
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.errors = errors  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


# --- the page fits the screen's width ------------------------------------------------------

_WIDTH = """async () => {
    await document.fonts.ready;
    const limit = window.innerWidth;
    const wide = [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > limit + 0.5
                && !e.closest('.visually-hidden, thead'))
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} (right edge at `
                    + `${Math.round(e.getBoundingClientRect().right)})`);
    return [document.readyState, document.documentElement.scrollWidth, limit, wide];
}"""


def assert_fits_the_width(page: Page, wait_ms: int = 3_000) -> None:
    """The page, loaded and its fonts in, is no wider than its window (no sideways scroll).

    Measured once the document is complete and again for up to `wait_ms` while it is not:
    a navigation by a click (not `goto`) can be measured mid-load, and under CI's load one
    such read saw a page 3 px wider than it was once loaded (stop 53, the puzzle review at
    390 px; never seen on a quiet machine). On failure the elements that stick out are
    named."""
    page.wait_for_load_state("load")
    state, width, limit, wide = page.evaluate(_WIDTH)
    waited = 0
    while width > limit and waited < wait_ms:
        page.wait_for_timeout(100)
        waited += 100
        state, width, limit, wide = page.evaluate(_WIDTH)
    assert width <= limit, (f"the page is {width} px wide in a {limit}-px window "
                            f"(document {state}); sticking out: {', '.join(wide) or 'none'}")
