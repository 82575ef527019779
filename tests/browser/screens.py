"""Screenshots of the pages the browser tests visit, kept as CI artifacts.

`shoot(page: Page, name)` saves a full-page PNG as `<dir>/<name>.png`, where `<dir>` is
`$SCREENSHOTS_DIR` or, by default, `artifacts/screenshots/` at the repository's root
(git-ignored; the README names it). Names say page, width and theme, e.g.
`game-player-390-dark`; a later run overwrites the same names.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import Page

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
