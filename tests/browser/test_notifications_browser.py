"""The notifications' bell in a real browser (issue #29): the count in the header at 390
and 1366 px in both themes, a notification arriving live over the lobby socket (the count
and a polite live region), the list page showing it new once, the settings page; axe finds
nothing on any of them."""

import pytest
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.dbwork import in_thread
from tests.browser.devices import sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.notifications.support import correspondence_game, play


@pytest.fixture
def players(django_user_model):
    alice = django_user_model.objects.create_user("alice", "alice@example.com",
                                                  "a-long-cargo-pass")
    bob = django_user_model.objects.create_user("bob", "bob@example.com", "a-long-cargo-pass")
    game = correspondence_game(bob, alice)
    play(game.id, bob)  # alice's turn: one unread
    return alice, bob


def bell(page):
    return page.get_by_role("navigation", name="Main").get_by_role("link",
                                                                   name="Notifications")


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("width", [390, 1366])
def test_the_bell_counts_and_takes_news_live(players, chromium_path, live_url, width, scheme):
    alice, bob = players
    with browser(chromium_path) as opened:
        page = new_page(opened, width, scheme)
        sign_in(page, live_url)
        lobby_frames: list = []  # the lobby socket's first `seeks` comes once it has
        page.on("websocket", lambda ws: "/ws/lobby" in ws.url and ws.on(  # joined the
            "framereceived", lambda frame: lobby_frames.append(frame)))  # member's groups
        page.goto(live_url + "/play/")
        for _ in range(150):
            if lobby_frames:
                break
            page.wait_for_timeout(100)
        assert lobby_frames, "the lobby socket sent nothing in 15 s"
        expect(bell(page)).to_be_visible()
        expect(bell(page)).to_contain_text("1 unread")
        shoot(page, f"bell-{width}-{scheme}", full_page=False)
        assert_accessible(page, f"lobby with the bell, {scheme}, {width}")

        # a new game where bob is to move first, then he moves: alice is told live
        game = in_thread(correspondence_game, bob, alice)
        in_thread(play, game.id, bob)
        expect(bell(page)).to_contain_text("2 unread")
        expect(page.locator("[data-bell-news]")).to_have_text(
            "New notification: Your turn in Cargo Connect with bob")
        shoot(page, f"bell-live-{width}-{scheme}", full_page=False)

        bell(page).click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Notifications")
        expect(page.locator(".notification.is-new")).to_have_count(2)
        shoot(page, f"notifications-{width}-{scheme}")
        assert_accessible(page, f"notification list, {scheme}, {width}")
        page.reload()
        expect(page.locator(".notification.is-new")).to_have_count(0)
        expect(page.locator("[data-bell-count]")).to_be_hidden()

        page.get_by_role("link", name="Notification settings").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Notification settings")
        shoot(page, f"notification-settings-{width}-{scheme}")
        assert_accessible(page, f"notification settings, {scheme}, {width}")
        assert page.errors == []  # type: ignore[attr-defined]
