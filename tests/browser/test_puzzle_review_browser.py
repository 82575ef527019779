"""A puzzle attempt's review in Chromium: no Review button while the attempt goes on; a
guest fails Monday's puzzle, reviews the attempt (the page asks first: the review shows the
solution), and lands on the review, where the marked turn's "Show on the board" moves the
replay viewer; the browser's storage now says the solution was shown. Screenshots at 1366
and 390 px (tests/browser/screens.py)."""


from playwright.sync_api import expect

from tests.browser.screens import shoot
from tests.browser.test_puzzles_browser import today, week_for_guest

__all__ = ["today", "week_for_guest"]


def test_a_guest_reviews_a_failed_attempt(week_for_guest, page, live_url):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(live_url + "/puzzles/2026-03-02/")
    expect(page.locator("[data-goal]")).to_have_text("Unload an I in 1 turn.")
    expect(page.locator("[data-review]")).to_have_count(0)  # not during the attempt
    page.locator('.target.column[data-column="b"]').click()  # b1 makes an L, not the I
    page.locator('[data-action="skip"]').click()
    expect(page.locator("[data-status-line]")).to_have_text("Out of turns: the goal was not met.")
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Review this attempt").click()
    expect(page.locator("h1")).to_contain_text("Review of an attempt at Monday's puzzle")
    assert dialogs and "shows the solver's line" in dialogs[0]
    expect(page.locator("[data-outcome]")).to_contain_text("Turn 1 lost the puzzle")
    marked = page.locator("[data-marked]")
    expect(marked).to_have_count(1)
    expect(marked.locator("[data-reason]")).to_contain_text(
        "Dropping in a would have completed your I (a1 a2 a3 a4) and met the goal")
    expect(marked.locator(".mini-bay")).to_have_count(3)
    counter = page.locator(".replay-controls [data-ply]")
    expect(counter).to_have_text("Turn 1 of 1")
    marked.get_by_role("button", name="Show on the board").click()
    expect(counter).to_have_text("Turn 0 of 1")
    expect(page.locator("#review-replay [data-message]")).to_have_text("The puzzle's Start.")
    shoot(page, "puzzle-review-1366")
    puzzle = page.locator("#puzzle-review").get_attribute("data-puzzle")
    shown = page.evaluate(
        f"() => JSON.parse(localStorage.getItem('cargo.puzzles.guest.v1'))['{puzzle}'].shown")
    assert shown is True
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    expect(page.locator("[data-marked]")).to_be_visible()
    shoot(page, "puzzle-review-390")
    assert errors == []
