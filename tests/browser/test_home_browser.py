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
    expect(page).to_have_title("Cargo Connect and Cargo Express · Cargo")
    expect(page.get_by_role("heading", level=1)).to_have_text("Cargo Connect and Cargo Express")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Cargo: Cargo Connect and Cargo Express")).to_be_visible()
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


@pytest.mark.parametrize("signed_in", [False, True])
def test_both_games_stand_side_by_side(member, chromium_path, live_url, signed_in):
    """Issue #42, point 11: the hero (visitors) and the Play box (members) offer Cargo
    Connect and Cargo Express side by side on a laptop, one above the other on a phone; both
    themes, axe clean; screenshots home-both-games-*."""
    from tests.browser.axe import assert_accessible
    from tests.browser.devices import sign_in
    from tests.browser.screens import assert_fits_the_width, browser, new_page, shoot

    ids = ("play-connect-title", "play-express-title") if signed_in else (
        "hero-connect", "hero-express")
    who = "member" if signed_in else "visitor"
    with browser(chromium_path) as opened:
        for width in (390, 1366):
            page = new_page(opened, width)
            if signed_in:
                sign_in(page, live_url, "carol@example.com", "a-long-cargo-pass", name="carol")
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.goto(live_url + "/")
                connect = page.locator(f"[aria-labelledby={ids[0]}]")
                express = page.locator(f"[aria-labelledby={ids[1]}]")
                expect(connect.get_by_role("heading", level=2)).to_contain_text("Cargo Connect")
                expect(express.get_by_role("heading", level=2)).to_contain_text("Cargo Express")
                expect(express.get_by_role("link", name="How to play Cargo Express")
                       ).to_be_visible()
                a, b = connect.bounding_box(), express.bounding_box()
                assert a and b
                if width == 1366:  # side by side, tops level
                    assert b["x"] >= a["x"] + a["width"] and abs(a["y"] - b["y"]) < 2
                else:  # one above the other, neither wider than the phone
                    assert b["y"] >= a["y"] + a["height"]
                    assert a["x"] + a["width"] <= 390 and b["x"] + b["width"] <= 390
                assert_fits_the_width(page)
                assert_accessible(page, f"home {who} {width} {scheme}")
                shoot(page, f"home-both-games-{who}-{width}-{scheme}")
            assert page.errors == []  # type: ignore[attr-defined]
