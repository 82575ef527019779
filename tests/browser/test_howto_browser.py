"""The How to play page in a real browser: drawn boards, links from home and navigation."""

from playwright.sync_api import expect


def test_it_shows_the_rules_with_boards(page, live_url):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_url + "/")
    page.get_by_role("link", name="How to play").first.click()
    expect(page).to_have_url(live_url + "/how-to-play")
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play Cargo Connect")
    for name in ("The seven AppCons", "Unloading", "The five cards (Shipping Protocols)",
                 "Chits: Gold, Steel and Rust", "The Final Audit"):
        expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    # Seven shapes, each a 5×5 board with exactly four Blue cores marked.
    shapes = page.locator(".shape-card")
    expect(shapes).to_have_count(7)
    for i in range(7):
        expect(shapes.nth(i).locator(".mini-cell")).to_have_count(25)
        expect(shapes.nth(i).locator(".mini-cell.is-marked .can.blue")).to_have_count(4)
    # Each card: a before and an after board; the lockdown shows its MagLock.
    expect(page.locator(".card-example")).to_have_count(5)
    lockdown = page.locator(".card-example", has_text="Corridor Lockdown")
    expect(lockdown.locator(".mini-bay").nth(1).locator(".mini-cell.is-locked")).to_have_count(5)
    # Empty Cans are hollow rings (no core drawn inside).
    empty = page.locator("#unload .mini-bay").nth(1).locator(".can.empty")
    expect(empty).to_have_count(4)
    ring = empty.first.evaluate("e => getComputedStyle(e, '::after').content")
    assert ring in ("none", "normal", "")
    assert errors == []
