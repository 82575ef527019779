"""The admin as a curator sees it, in Chromium, in both themes (the admin follows the
system's scheme, and the puzzle editor follows the admin), at 1366 and 390 px: axe finds no
violation on the admin's index, the puzzle and week lists, a puzzle's change form with the
visual editor (also a new puzzle's), a week's change form, and the games and Daily
Challenge lists; the editor's cells are drawn (a background and a border that differ from
the page's), not letters floating on nothing. Screenshots: `admin-<page>-<width>-<theme>`."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import Page, expect

from puzzles.models import Week
from tests.browser.axe import assert_accessible
from tests.browser.screens import browser, new_page, shoot
from tests.puzzles.conftest import MONDAY, make_puzzle, record

PASSWORD = "a-long-cargo-pass"
COLUMN_WITH_ORANGE = "...../...../B..../B.O../B.O.x b SD - - - - 4 0 0 0.92"


@pytest.fixture
def admin_site(transactional_db, django_user_model):
    django_user_model.objects.create_superuser("curator", "curator@example.com", PASSWORD)
    week = Week.objects.create(monday=MONDAY + dt.timedelta(days=7))
    puzzle = make_puzzle(record(start=COLUMN_WITH_ORANGE), week, 0, prove=False)
    return {"week": week.pk, "puzzle": puzzle.pk}


def admin_sign_in(page: Page, base: str) -> None:
    page.goto(base + "/admin/login/")
    page.locator("#id_username").fill("curator")
    page.locator("#id_password").fill(PASSWORD)
    page.locator('input[type="submit"]').click()
    expect(page.locator("#site-name")).to_be_visible()


def cell_style(page: Page, cell: str) -> dict[str, str]:
    return page.evaluate("""(name) => {
        const cell = document.querySelector(`[data-cell="${name}"]`);
        const style = getComputedStyle(cell);
        const page = getComputedStyle(document.body);
        return {background: style.backgroundColor, border: style.borderTopColor,
                borderWidth: style.borderTopWidth, pageBackground: page.backgroundColor};
    }""", cell)


TRANSPARENT = ("rgba(0, 0, 0, 0)", "transparent")


@pytest.mark.parametrize("screen", [1366, 390])
@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_admin_pages_and_the_puzzle_editor(admin_site, chromium_path, live_url, screen, scheme):
    pages = [
        ("index", "/admin/"),
        ("puzzles", "/admin/puzzles/puzzle/"),
        ("puzzle-editor", f"/admin/puzzles/puzzle/{admin_site['puzzle']}/change/"),
        ("puzzle-add", "/admin/puzzles/puzzle/add/"),
        ("weeks", "/admin/puzzles/week/"),
        ("week", f"/admin/puzzles/week/{admin_site['week']}/change/"),
        ("games", "/admin/games/game/"),
        ("daily-games", "/admin/daily/dailygame/"),
    ]
    with browser(chromium_path) as opened:
        page = new_page(opened, screen, color_scheme=scheme)
        admin_sign_in(page, live_url)
        failures = []
        for name, path in pages:
            page.goto(live_url + path)
            expect(page.locator("#content")).to_be_visible()
            if name.startswith("puzzle-"):
                editor = page.locator("[data-puzzle-editor]")
                expect(editor.locator("[data-cell]").first).to_be_visible()
                for cell in ("a1", "c1", "e1", "b1"):  # Blue, Orange, an Empty Can, empty
                    style = cell_style(page, cell) if name == "puzzle-editor" or cell == "b1" \
                        else None
                    if style is None:
                        continue
                    assert style["background"] not in TRANSPARENT, (name, cell, style)
                    assert style["border"] not in TRANSPARENT, (name, cell, style)
                    assert style["borderWidth"] != "0px", (name, cell, style)
                if name == "puzzle-editor":
                    blue, orange, can, empty = (cell_style(page, c)["background"]
                                                for c in ("a1", "c1", "e1", "b1"))
                    assert len({blue, orange, can, empty}) == 4
            try:
                assert_accessible(page, f"admin {name}, {scheme}, {screen}")
            except AssertionError as failure:  # every page is checked; all are reported
                failures.append(str(failure))
            shoot(page, f"admin-{name}-{screen}-{scheme}")
        assert not failures, "\n\n".join(failures)
        assert page.errors == []
