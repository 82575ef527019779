"""The claim box with more than two seats (static/js/live/abandon.js, docs/clocks.md): a line
per seat whose player left, counting down, then a button that names the player and says
what the seat becomes (a bot, or played on without); two seats as before. The test-only
kinds of three seats have no view of their own yet (they borrow Cargo Connect's, which
cannot draw them), so the box is driven on a Cargo Connect game page, beside the shell's
own, with the states the server sends (tests/games/test_claim_seats.py checks those)."""

import pytest
from django.templatetags.static import static
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.pages import in_progress, make_players
from tests.browser.screens import browser, new_page, shoot

SEATS = [{"name": "alice", "label": "North"}, {"name": "bob", "label": "East"},
         {"name": "carol", "label": "South"}]

DRIVE = """async ([url, state, viewer]) => {
  const { AbandonBox } = await import(url);
  let box = document.querySelector("[data-test-abandon]");
  if (!box) {
    const shells = document.querySelector("[data-abandon]");
    box = document.createElement("div");
    box.className = "abandon";
    box.dataset.testAbandon = "";
    shells.after(box);
    shells.hidden = true;
  }
  window.claimed = [];
  const abandon = new AbandonBox(box, {
    onAbort: () => {},
    onClaim: (result, seat) => window.claimed.push([result, seat]),
  });
  abandon.update(state, viewer);
}"""


def three_seats(hand_over: str, away: list) -> dict:
    return {"over": False, "seats": SEATS,
            "abandon": {"abortable": False, "away": away, "claim_after_ms": 60_000,
                        "hand_over": hand_over}}


@pytest.fixture
def game(django_user_model, live_url):
    alice, bob = make_players(django_user_model)
    return in_progress(alice, bob)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_button_per_seat_that_left(game, chromium_path, live_url, scheme):
    url = static("js/live/abandon.js")
    with browser(chromium_path) as opened:
        for width in (1366, 390):
            page = new_page(opened, width, scheme)
            page.goto(f"{live_url}/g/{game.id}")
            page.evaluate(DRIVE, [url, three_seats("bot", [None, 2_000, 61_000]), 0])
            box = page.locator("[data-test-abandon]")
            expect(box).to_be_visible()
            expect(box).to_contain_text("bob left. You may hand their seat to a bot in 58 s.")
            expect(box).to_contain_text("carol left the game.")
            expect(box.get_by_role("button")).to_have_count(1)
            box.scroll_into_view_if_needed()
            shoot(page, f"claim-seats-{width}-{scheme}")
            assert_accessible(page, f"claim seats {width} {scheme}")
            box.get_by_role("button", name="Hand carol's seat to a bot").click()
            assert page.evaluate("window.claimed") == [[None, 2]]

            page.evaluate(DRIVE, [url, three_seats("dormant", [None, None, 61_000]), 1])
            button = box.get_by_role("button", name="Play on without carol")
            expect(button).to_be_visible()
            expect(box).not_to_contain_text("bob")  # here
            button.click()
            assert page.evaluate("window.claimed") == [[None, 2]]

            page.evaluate(DRIVE, [url, three_seats("bot", [None, None, None]), 0])
            expect(box).to_be_hidden()  # nobody away
            assert page.errors == []  # type: ignore[attr-defined]
            page.context.close()


def test_two_seats_read_as_before(game, chromium_path, live_url):
    url = static("js/live/abandon.js")
    with browser(chromium_path) as opened:
        page = new_page(opened, 1366)
        page.goto(f"{live_url}/g/{game.id}")
        two = {"over": False, "seats": SEATS[:2],
               "abandon": {"abortable": False, "away": [None, 61_000],
                           "claim_after_ms": 60_000}}
        page.evaluate(DRIVE, [url, two, 0])
        box = page.locator("[data-test-abandon]")
        expect(box).to_contain_text("Your opponent left the game.")
        box.get_by_role("button", name="Claim the win").click()
        assert page.evaluate("window.claimed") == [["win", None]]
        # The resign dialog of a two-seat game keeps its words.
        expect(page.locator("[data-resign-consequence]")).to_have_text(
            "Your opponent wins at once.")
