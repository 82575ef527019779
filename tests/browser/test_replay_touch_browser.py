"""The replay on a touch phone tells the player to tap its buttons, not to press arrow
keys, and the buttons step through the turns; with a mouse and keyboard it names the keys,
and the arrow keys step. The counter numbers turns as the game page's turn list does."""

import pytest
from playwright.sync_api import expect

from tests.browser.pages import make_players
from tests.browser.screens import shoot
from tests.games.support import new_game, scripted_tokens
from tests.review.support import play_out

from .test_game_layout_browser import screen


@pytest.fixture
def finished(django_user_model):
    alice, bob = make_players(django_user_model)
    return play_out(new_game(alice, bob, size=5), scripted_tokens(5), alice, bob)


def test_the_replay_speaks_to_touch_and_to_keys(finished, chromium_path, live_url):
    last = finished.ply
    with screen(chromium_path, "390") as phone:
        phone.goto(f"{live_url}/g/{finished.id}/replay")
        touch_help = phone.locator(".replay-help .for-coarse-pointer")
        expect(touch_help).to_be_visible()
        expect(touch_help).to_contain_text("Tap ◀ and ▶")
        expect(phone.locator(".replay-help .for-fine-pointer")).to_be_hidden()
        expect(phone.get_by_text("arrow keys")).to_be_hidden()
        counter = phone.locator(".replay-controls [data-ply]")
        expect(counter).to_have_text(f"Turn {last} of {last}")
        phone.get_by_role("button", name="Previous turn").tap()
        expect(counter).to_have_text(f"Turn {last - 1} of {last}")
        # The list names the same turn by the same number.
        expect(phone.locator(f'.turn-list [data-num="{last - 1}"]')).to_have_attribute(
            "aria-current", "step")
        shoot(phone, "replay-touch-390-dark")
    with screen(chromium_path, "1366") as desktop:
        desktop.goto(f"{live_url}/g/{finished.id}/replay")
        keys_help = desktop.locator(".replay-help .for-fine-pointer")
        expect(keys_help).to_be_visible()
        expect(keys_help).to_contain_text("arrow keys")
        expect(desktop.locator(".replay-help .for-coarse-pointer")).to_be_hidden()
        counter = desktop.locator(".replay-controls [data-ply]")
        # The replay's module has drawn the last turn, so its keys are listened to: a key
        # pressed before that was lost on a loaded machine (CI, the random order).
        expect(counter).to_have_text(f"Turn {last} of {last}")
        desktop.keyboard.press("Home")
        expect(counter).to_have_text(f"Turn 0 of {last}")
        desktop.keyboard.press("ArrowRight")
        expect(counter).to_have_text(f"Turn 1 of {last}")
