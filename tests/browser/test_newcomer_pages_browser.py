"""What a newcomer tripped over (issue #27), seen again in Chromium at 390×844 and 1366×900
in both themes, with axe on each page and a screenshot kept (`newcomer-<page>-<width>-<theme>`):

- 8: the game review's accuracy table and the puzzle review's verdict table fit a phone's
  width (no sideways scrolling, no scroll box the keyboard cannot reach);
- 9: the Rankings page's Daily Challenge tab is styled (a difficulty switch with the
  selected one filled, a bordered table, your row marked, names that link);
- 10: a score goal reads as points gained, with its progress, above the bay on a phone;
- 11: a fresh install's home page shows the Puzzles page's week;
- 13: with DEBUG on, as in `make run`, every 404 is the site's page;
- 14: the landing page's demo bay draws Orange cores as diamonds, the home page's week strip
  is readable, "Try the puzzle first" stays on one line, a guest's day whose solution alone
  was seen is not "tried", the analysis board writes a minus sign.
"""

from __future__ import annotations

import datetime as dt
import functools

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from engine import review as engine_review
from games.kinds import cargo_connect
from games.records import review
from puzzles import schedule
from puzzles.models import Week
from rankings import daily_boards
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import assert_fits_the_width, browser, new_page, shoot
from tests.daily.test_board_order import result
from tests.games.bot_support import eager
from tests.games.support import new_game, scripted_tokens
from tests.puzzles.conftest import MONDAY, make_puzzle, record
from tests.review.support import play_out

__all__ = ["eager"]

SCREENS = [(390, "dark"), (390, "light"), (1366, "dark"), (1366, "light")]
# Blue already holds 15 points; three Blue cores in column a: the I gains 8.
SCORE_START = "...../...../B..../B..../B.... b - - - - - 15 0 0 0.92"


fits_the_width = assert_fits_the_width


def check(page: Page, name: str, screen: int, theme: str, failures: list[str],
          view: str | None = None) -> None:
    """axe on the page; a full-page screenshot, and one of the screen around `view`."""
    try:
        assert_accessible(page, f"{name}, {theme}, {screen}")
    except AssertionError as failure:  # every page is checked; all are reported
        failures.append(str(failure))
    shoot(page, f"newcomer-{name}-{screen}-{theme}")
    if view:
        page.locator(view).first.scroll_into_view_if_needed()
        shoot(page, f"newcomer-{name}-{screen}-{theme}-view", full_page=False)


@pytest.fixture
def reviews(live_url, django_user_model, eager, monkeypatch):  # noqa: F811
    """A reviewed game between alice and bob, and this week's puzzles (Monday: a score goal
    with Blue already on 15 points)."""
    monkeypatch.setattr(schedule, "today", lambda: MONDAY + dt.timedelta(days=1))
    monkeypatch.setattr(cargo_connect, "review_game",
                        functools.partial(engine_review.review_game, depth=3, budget=2000))
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    game = play_out(new_game(alice, bob, size=5), scripted_tokens(5), alice, bob)
    review.request_review(game.id)
    # The review runs on a thread (the embedded default's): done before the page is opened
    # and before this fixture writes again (SQLite: "database table is locked" in the
    # review's writes; on a busy machine the page outwaited the 5 s `expect`).
    review.wait_for_background(game.id)
    week = Week.objects.create(monday=MONDAY, status=Week.Status.PUBLISHED)
    make_puzzle(record(start=SCORE_START, goal="score:7", turns=2), week, 0)
    make_puzzle(record(), week, 1)
    month = daily_boards._this_month()
    result(alice, 40, 5, day=month)
    result(bob, 31, -4, day=month)
    return {"game": game.id}


@pytest.mark.parametrize("screen, theme", SCREENS)
def test_reviews_rankings_and_the_puzzle_goal(reviews, chromium_path, live_url, screen, theme):
    with browser(chromium_path) as opened:
        page = new_page(opened, screen, color_scheme=theme)
        failures: list[str] = []

        # 8: the game review's accuracy table fits; so does the whole page
        page.goto(f"{live_url}/g/{reviews['game']}/review")
        table = page.locator("table.accuracy")
        expect(table).to_be_visible()
        fits_the_width(page)
        box = table.bounding_box()
        assert box is not None and box["x"] + box["width"] <= screen
        check(page, "game-review", screen, theme, failures, view="table.accuracy")

        # 10: the goal in points gained, with progress, first on a phone
        page.goto(f"{live_url}/puzzles/{MONDAY.isoformat()}/")
        expect(page.locator("[data-goal]")).to_have_text("Gain 7 points in 2 turns.")
        progress = page.locator("[data-goal-progress]")
        expect(progress).to_have_text("Gained 0 of 7 points.")
        goal_y = page.locator("[data-goal]").bounding_box()["y"]
        assert goal_y < page.locator("[data-bay]").bounding_box()["y"]
        assert goal_y < page.locator("[data-status-line]").bounding_box()["y"]
        fits_the_width(page)
        check(page, "puzzle-score-goal", screen, theme, failures)
        page.locator('.target.column[data-column="b"]').click()  # b1 offers an L: skip it
        page.locator('[data-action="skip"]').click()
        expect(page.locator("[data-status-line]")).to_contain_text("Turn 2 of 2")
        page.locator('.target.column[data-column="a"]').click()
        page.locator('[data-unload="a1a2a3a4"]').click()
        page.locator('[data-action="unload"]').click()
        expect(page.locator("[data-status-line]")).to_have_text("Solved in 2 turns!")
        expect(progress).to_have_text("Gained 8 points: the goal of 7 is met.")

        # 8: the puzzle review's table of verdicts fits, with no scroll box
        page.goto(f"{live_url}/puzzles/{(MONDAY + dt.timedelta(days=1)).isoformat()}/")
        page.locator('.target.column[data-column="b"]').click()
        page.locator('[data-action="skip"]').click()
        page.on("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Review this attempt").click()
        page.wait_for_url("**/puzzles/review/**")
        verdicts = page.locator("table.puzzle-verdicts")
        expect(verdicts).to_be_visible()
        fits_the_width(page)
        scrolls = page.evaluate("""() => [...document.querySelectorAll('.review-summary *')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1
                    && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)).length""")
        assert scrolls == 0
        box = verdicts.bounding_box()
        assert box is not None and box["x"] + box["width"] <= screen
        check(page, "puzzle-review", screen, theme, failures, view="table.puzzle-verdicts")

        # 9: the Daily Challenge tab, signed in as bob
        sign_in(page, live_url, "bob@example.com", name="bob")
        page.goto(live_url + "/rankings/?tab=daily&level=easy")
        bullets = page.evaluate(
            "getComputedStyle(document.querySelector('.daily-tabs')).listStyleType")
        assert bullets == "none"
        current = page.locator(".daily-tabs a[aria-current=page]")
        other = page.locator(".daily-tabs a:not([aria-current])").first
        assert current.evaluate("(e) => getComputedStyle(e).backgroundColor") != \
            other.evaluate("(e) => getComputedStyle(e).backgroundColor")
        cell = page.locator("table.daily-board td").first
        assert cell.evaluate("(e) => getComputedStyle(e).borderBottomStyle") == "solid"
        mine = page.locator("table.daily-board tr.is-you")
        expect(mine).to_contain_text("bob")
        assert mine.locator("th").evaluate("(e) => getComputedStyle(e).backgroundColor") != \
            page.locator("table.daily-board tbody tr:not(.is-you) th").first.evaluate(
                "(e) => getComputedStyle(e).backgroundColor")
        expect(page.locator("table.daily-board").get_by_role("link", name="alice")) \
            .to_have_attribute("href", "/@/alice")
        expect(mine).to_contain_text("31 (\u22124)")
        fits_the_width(page)
        check(page, "rankings-daily", screen, theme, failures)

        assert not failures, "\n\n".join(failures)
        assert page.errors == []


@pytest.fixture
def fresh_install(live_url, django_user_model, monkeypatch, settings):
    """Nothing published yet (no worker), DEBUG on as in `make run`, one member."""
    monkeypatch.setattr(schedule, "today", lambda: MONDAY + dt.timedelta(days=1))
    settings.DEBUG = True
    django_user_model.objects.create_user("marta", "marta@example.com", PASSWORD)


NOT_FOUND = ["/no-such-page/", "/rankings/?tab=nope", "/puzzles/daily/2999-01-01/",
             "/puzzles/daily/2026-02-30/"]


@pytest.mark.parametrize("screen, theme", SCREENS)
def test_landing_home_and_404s_on_a_fresh_install(fresh_install, chromium_path, live_url,
                                                  screen, theme):
    assert settings.DEBUG
    with browser(chromium_path) as opened:
        page = new_page(opened, screen, color_scheme=theme)
        failures: list[str] = []

        # 14: the landing page's demo bay has the game's pieces
        page.goto(live_url + "/")
        orange = page.evaluate("""getComputedStyle(
            document.querySelector('.bay-demo .can.orange'), '::after').transform""")
        assert orange.startswith("matrix(0.707"), orange  # a diamond: rotate(45deg)
        fits_the_width(page)
        check(page, "landing", screen, theme, failures, view=".bay-demo")

        # 14: the lobby says nothing of Play buttons a guest does not have
        page.goto(live_url + "/play/")
        expect(page.locator(".empty-seeks")).to_have_text(
            "No open seeks. Sign in to create one, or play CargoBot now.")

        # 13: with DEBUG on, each 404 is the site's page
        for path in NOT_FOUND:
            page.goto(live_url + path)
            expect(page.locator(".error-code")).to_have_text("404")
            expect(page.locator("body")).not_to_contain_text("URLconf")
            expect(page.locator("body")).not_to_contain_text("Page not found at")
        check(page, "404-debug", screen, theme, failures)

        # 11: a member's home page on a fresh install shows the Puzzles page's week
        sign_in(page, live_url, "marta@example.com", name="marta")
        page.goto(live_url + "/")
        strip = page.locator(".week-strip")
        expect(strip).not_to_contain_text("not published")
        expect(strip.get_by_role("link")).to_have_count(2)  # Monday and Tuesday are open
        # 14: the strip's words are readable (at least 13 px)
        size = page.evaluate("""parseFloat(getComputedStyle(
            document.querySelector('.week-strip .day-word')).fontSize)""")
        assert size >= 13, size
        fits_the_width(page)
        check(page, "home-fresh-week", screen, theme, failures, view=".week-strip")
        page.goto(live_url + "/puzzles/")
        expect(page.locator("[data-day] [data-state]").first).to_have_text("new")
        expect(page.get_by_role("link", name="Play Monday's puzzle")).to_be_visible()

        assert not failures, "\n\n".join(failures)
        assert page.errors == []


@pytest.fixture
def asked_review(live_url, monkeypatch):
    """This week published, and the review of someone's failed attempt at Monday's puzzle."""
    from puzzles import reviews as puzzle_reviews

    monkeypatch.setattr(schedule, "today", lambda: MONDAY + dt.timedelta(days=1))
    week = Week.objects.create(monday=MONDAY, status=Week.Status.PUBLISHED)
    monday = make_puzzle(record(), week, 0)
    make_puzzle(record(), week, 1)
    return {"key": puzzle_reviews.review_attempt(monday, ["b"]).key}


@pytest.mark.parametrize("screen, theme", [(390, "dark"), (390, "light"), (1366, "dark")])
def test_a_guest_sees_a_solution_and_is_asked_before_a_review(asked_review, chromium_path,
                                                              live_url, screen, theme):
    with browser(chromium_path) as opened:
        page = new_page(opened, screen, color_scheme=theme)
        failures: list[str] = []

        # 14: the review's question: "Try the puzzle first" on one line
        page.goto(f"{live_url}/puzzles/review/{asked_review['key']}")
        first = page.get_by_role("link", name="Try the puzzle first")
        expect(first).to_be_visible()
        lines = first.evaluate("""(e) => {
            const range = document.createRange();
            range.selectNodeContents(e);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }""")
        assert lines == 1, lines
        fits_the_width(page)
        check(page, "review-question", screen, theme, failures)

        # 14: a guest who only looked at Monday's solution has not "tried" it
        page.goto(f"{live_url}/puzzles/{MONDAY.isoformat()}/")
        page.on("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Show the solution").click()
        expect(page.locator("[data-solution]")).to_be_visible()
        page.goto(live_url + "/puzzles/")
        expect(page.locator('[data-day="2026-03-02"] [data-state]')).to_have_text("seen")
        expect(page.locator('[data-day="2026-03-03"] [data-state]')).to_have_text("new")
        check(page, "week-seen", screen, theme, failures)

        # 14: points are written with a minus sign (the review's analysis board's words)
        words = page.evaluate("""() => import('/static/js/cargo-connect/numbers.js')
            .then((m) => [m.signedPoints(-230), m.signedPoints(230), m.signedPoints(0),
                          m.signedPoints(-5)])""")
        assert words == ["\u22122.3", "+2.3", "0", "\u22120.05"]

        assert not failures, "\n\n".join(failures)
        assert page.errors == []
