"""The game page's layout on a phone (390×844, a touch screen) and a laptop (1366×900), in
both colour schemes: the opponent's panel above the bay and the player's below it; the bay
and the turn controls in view on opening the page, without scrolling; the legal columns
(the server's `legal` list) marked without hover, and no other column."""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Page, expect

from tests.browser import shared
from tests.browser.devices import sign_in
from tests.browser.pages import in_progress, make_players
from tests.browser.screens import shoot

SCREENS = {"390": {"width": 390, "height": 844}, "1366": {"width": 1366, "height": 900}}


@pytest.fixture
def game_id(django_user_model):
    alice, bob = make_players(django_user_model)
    return in_progress(alice, bob).id


@contextmanager
def screen(chromium_path: str, name: str) -> Iterator[Page]:
    phone = name == "390"
    with shared.lease(chromium_path) as browser:
        context = browser.new_context(viewport=SCREENS[name], has_touch=phone,
                                      is_mobile=phone)
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield page


def box(page: Page, selector: str, *, last: bool = False) -> dict:
    """The element's box, once it is rendered: the socket's first `state` frame draws the
    panels again, and an element read just then has been replaced (no box) for a moment.
    `last`: the last of several matches (the card buttons), else exactly one must match."""
    found = page.locator(selector)
    for _ in range(50):
        if last:
            expect(found.last).to_be_attached()
        else:
            expect(found).to_have_count(1)
        result = (found.last if last else found).bounding_box()
        if result is not None:
            return result
        page.wait_for_timeout(100)
    raise AssertionError(f"{selector} is not rendered")


def bottom(b: dict) -> float:
    return b["y"] + b["height"]


def column_marks(page: Page) -> dict[str, bool]:
    """For each column target: whether its mark (the ▼ and the band) shows, unhovered."""
    return page.evaluate("""() => Object.fromEntries(
      [...document.querySelectorAll('.target.column')].map((b) => {
        const mark = getComputedStyle(b, '::before');
        const shown = !b.closest('[hidden]') && mark.content.includes('▼')
          && Number(mark.opacity) >= 0.5;
        return [b.dataset.column, shown];
      }))""")


@pytest.mark.parametrize("size", ["390", "1366"])
def test_panels_order_controls_in_view_and_marked_columns(game_id, chromium_path, live_url,
                                                          size):
    with screen(chromium_path, size) as page:
        sign_in(page, live_url)
        for scheme in ("dark", "light"):
            page.emulate_media(color_scheme=scheme)
            page.goto(f"{live_url}/g/{game_id}")
            expect(page.locator("[data-status-line]")).to_have_text("Your turn")
            expect(page.locator("[data-connection]")).to_have_text("Live")
            page.mouse.move(0, 0)  # nothing hovered (on the phone, no pointer at all)
            height = SCREENS[size]["height"]
            assert page.evaluate("window.scrollY") == 0

            bay = box(page, ".gbay")
            cards = page.locator("[data-controls] .card-buttons button")
            expect(cards).to_have_count(5)
            last_card = box(page, "[data-controls] .card-buttons button", last=True)
            assert bottom(last_card) <= height, (
                f"the card buttons end at {last_card} below the {height} px screen")
            assert bottom(bay) <= height

            if size == "390":  # one column: opponent above the bay, the player below
                top_panel = box(page, ".player.is-top")
                # The player's own bar (name, clock, points) right under the bay, then the
                # controls, then the player's cards and shelf (issue #27, item 6).
                own_bar = box(page, ".player.is-bottom .player-top")
                own_details = box(page, ".player.is-bottom .player-details")
                expect(page.locator(".player.is-top")).to_contain_text("bob")
                expect(page.locator(".player.is-bottom")).to_contain_text("alice")
                assert bottom(top_panel) <= bay["y"]
                assert bottom(bay) <= own_bar["y"] < bottom(bay) + 40
                assert bottom(own_bar) <= box(page, "[data-controls]")["y"]
                assert own_details["y"] >= bottom(box(page, "[data-controls]"))
                assert bottom(top_panel) <= height
            else:  # the panels beside the bay, the opponent first
                assert box(page, ".player.is-top")["x"] > bay["x"] + bay["width"]
                assert box(page, ".player.is-top")["y"] < box(page, ".player.is-bottom")["y"]

            legal = page.evaluate(
                "cargoGame.state.legal.filter((t) => /^[a-h]$/.test(t)).sort()")
            assert legal == ["a", "b", "d", "e"]  # column c is MagLocked
            marks = column_marks(page)
            assert sorted(c for c, shown in marks.items() if shown) == legal
            shoot(page, f"game-player-{size}-{scheme}", full_page=False)


def test_a_spectator_sees_orange_above_and_blue_below_on_a_phone(game_id, chromium_path,
                                                                live_url):
    with screen(chromium_path, "390") as page:
        page.goto(f"{live_url}/g/{game_id}")
        expect(page.locator("[data-connection]")).to_have_text("Live")
        expect(page.locator(".player.is-top")).to_have_class("panel player orange is-top")
        assert bottom(box(page, ".player.is-top")) <= box(page, ".gbay")["y"]
        assert box(page, ".player.is-bottom .player-top")["y"] >= bottom(box(page, ".gbay"))
        assert not any(column_marks(page).values())  # nothing to play for a spectator
        shoot(page, "game-spectator-390-dark")
