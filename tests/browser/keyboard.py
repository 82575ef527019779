"""Playing Cargo Connect with the keyboard alone in the browser tests: what has focus, and
the key presses a player makes (Tab to the board, arrow keys between columns and cells,
Enter to choose). Nothing here clicks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

FOCUSED = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return {body: true};
  const d = a.dataset || {};
  return {
    body: false, tag: a.tagName.toLowerCase(), column: d.column || null, cell: d.cell || null,
    card: d.card || null, token: d.token || null, action: d.action || null,
    unload: d.unload || null, label: a.getAttribute("aria-label"),
    text: (a.textContent || "").trim(), in_bay: Boolean(a.closest(".bay-frame")),
    in_controls: Boolean(a.closest("[data-controls]")),
  };
}"""


def focused(page: Page) -> dict[str, Any]:
    """What has focus now (`body: True` when focus is on the page itself)."""
    return page.evaluate(FOCUSED)


def press_until(page: Page, key: str, done: Callable[[dict[str, Any]], object],
                limit: int = 60) -> dict[str, Any]:
    """Press `key` until `done(focused)` holds; fail after `limit` presses."""
    now = focused(page)
    for _ in range(limit):
        if done(now):
            return now
        page.keyboard.press(key)
        now = focused(page)
    if done(now):
        return now
    raise AssertionError(f"{limit} presses of {key} never reached the element; focus: {now}")


def tab_to(page: Page, done: Callable[[dict[str, Any]], object], limit: int = 60) -> dict[str, Any]:
    return press_until(page, "Tab", done, limit)


def to_column(page: Page, column: str) -> None:
    """From anywhere: Tab to the columns' one tab stop, then arrow keys to `column`."""
    if focused(page).get("column") is None:
        tab_to(page, lambda f: f.get("column") is not None)
    press_until(page, "ArrowRight", lambda f: f.get("column") == column, limit=8)


def drop(page: Page, column: str) -> None:
    to_column(page, column)
    page.keyboard.press("Enter")


def to_cell(page: Page, cell: str) -> None:
    """From a cell target: arrow keys to `cell` (letters are columns, digits rows)."""
    for _ in range(20):
        now = focused(page)
        assert now.get("cell"), f"focus is not on a cell of the bay: {now}"
        if now["cell"] == cell:
            return
        dx = ord(cell[0]) - ord(now["cell"][0])
        dy = int(cell[1:]) - int(now["cell"][1:])
        key = ("ArrowRight" if dx > 0 else "ArrowLeft") if dx else (
            "ArrowUp" if dy > 0 else "ArrowDown")
        page.keyboard.press(key)
    raise AssertionError(f"the arrow keys never reached {cell}; focus: {focused(page)}")


def choose_cell(page: Page, cell: str) -> None:
    to_cell(page, cell)
    page.keyboard.press("Enter")


def open_card(page: Page, card: str) -> dict[str, Any]:
    """Tab (forwards, wrapping through the page) to a card's button and press Enter; what
    has focus then."""
    tab_to(page, lambda f: f.get("card") == card and f.get("in_controls"))
    page.keyboard.press("Enter")
    return focused(page)


def choose_token(page: Page, token: str) -> None:
    tab_to(page, lambda f: f.get("token") == token, limit=30)
    page.keyboard.press("Enter")
