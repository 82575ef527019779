"""Blue, Orange, an Empty Can and the MagLock differ without colour, in both schemes: a Blue
core is round, an Orange core a turned square (a diamond), an Empty Can has no core at all,
and the MagLock is a striped band with a text label. Checked on the drawn page (computed
styles), with the colours taken away (a grayscale screenshot is kept to look at)."""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import in_progress, make_players
from tests.browser.screens import shoot

SHAPES = """(cell) => {
  const can = document.querySelector(`.gbay-modules .module[data-cell="${cell}"] .can`);
  const core = getComputedStyle(can, '::after');
  return {content: core.content, radius: core.borderTopLeftRadius, transform: core.transform};
}"""


@pytest.fixture
def game_id(django_user_model):
    alice, bob = make_players(django_user_model)
    return in_progress(alice, bob).id


def test_cores_cans_and_the_maglock_differ_by_shape(game_id, page, live_url):
    page.set_viewport_size({"width": 1366, "height": 900})
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{live_url}/g/{game_id}")
        expect(page.locator('.module.empty[data-cell="a1"]')).to_have_count(1)
        orange = page.evaluate(SHAPES, "b1")  # Orange core
        empty = page.evaluate(SHAPES, "a1")  # Empty Can (an unloaded Blue core)
        assert orange["content"] == '""' and orange["transform"] != "none"
        assert empty["content"] in ("none", "normal")  # no core drawn at all
        # A Blue core: drop one on a copy of a can, so its style is the page's own.
        blue = page.evaluate("""() => {
          const can = document.createElement('span');
          can.className = 'can blue';
          document.querySelector('.gbay-modules').append(can);
          const core = getComputedStyle(can, '::after');
          const shape = {content: core.content, radius: core.borderTopLeftRadius,
                         transform: core.transform};
          can.remove();
          return shape;
        }""")
        assert blue["content"] == '""' and blue["radius"] == "50%" and blue["transform"] == "none"
        assert orange["radius"] != "50%"
        lock = page.locator(".maglock")
        expect(lock).to_have_attribute("aria-label", "MagLock on column c")
        expect(lock.locator(".maglock-label")).to_have_text("MagLock c")
        pattern = page.evaluate(
            "getComputedStyle(document.querySelector('.maglock')).backgroundImage")
        assert "repeating-linear-gradient" in pattern
        # Through the CSSOM (the CSP refuses a style tag).
        page.evaluate("document.documentElement.style.filter = 'grayscale(1)'")
        shoot(page, f"game-grayscale-1366-{scheme}", full_page=False)
