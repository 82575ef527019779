"""The home page in a real browser: content, navigation, styles and the ES module."""

import pytest
from playwright.sync_api import expect


@pytest.fixture
def member(django_user_model):
    return django_user_model.objects.create_user("carol", "carol@example.com", "a-long-cargo-pass")


def test_it_shows_the_home_page(page, live_url):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_url + "/")
    expect(page).to_have_title("Home · Cargo Connect")
    expect(page.get_by_role("heading", level=1)).to_have_text("Cargo Connect")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Cargo Connect")).to_be_visible()
    expect(nav.get_by_role("link", name="Sign in")).to_be_visible()
    expect(nav.get_by_role("link", name="Sign up")).to_be_visible()
    # the demo Cargo Bay, drawn by the server with the game's modules: 6×6 cells
    expect(page.locator(".bay-demo .mini-cell")).to_have_count(36)
    background = page.evaluate("getComputedStyle(document.querySelector('.mini-bay')).display")
    assert background == "grid"
    # Orange cores are diamonds, as in the game; Blue cores round (issue #27, item 14)
    orange = page.evaluate("""getComputedStyle(
        document.querySelector('.bay-demo .can.orange'), '::after').transform""")
    blue = page.evaluate("""getComputedStyle(
        document.querySelector('.bay-demo .can.blue'), '::after').borderRadius""")
    assert orange.startswith("matrix(0.707"), orange  # rotate(45deg)
    assert blue == "50%", blue
    assert errors == []


def test_it_signs_in_and_out_from_the_nav(member, page, live_url):
    page.goto(live_url + "/")
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign In")
    page.get_by_label("Login").fill("carol@example.com")
    page.get_by_label("Password").fill("a-long-cargo-pass")
    page.get_by_role("button", name="Sign In").click()
    expect(page).to_have_url(live_url + "/")
    expect(nav).to_contain_text("carol")
    nav.get_by_role("button", name="Sign out").click()
    expect(nav.get_by_role("link", name="Sign in")).to_be_visible()
