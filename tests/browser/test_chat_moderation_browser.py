"""A moderator's hide and show in the browser (issue #29): a hidden message leaves both
players' pages at once and, shown again, comes back in its place between the others."""

from __future__ import annotations

from playwright.sync_api import expect

from chat import services as chat
from chat.models import Message
from tests.browser.devices import sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.browser.test_chat_browser import connect_game, in_thread, open_chat, people, room

__all__ = ["connect_game", "people"]  # fixtures


def lines(page):
    return room(page, "players").locator(".chat-text")


def test_hidden_then_shown_again_on_open_pages(connect_game, people, chromium_path,
                                                live_url):
    with browser(chromium_path) as opened:
        alice = new_page(opened, 1366, "light")
        bob = new_page(opened, 390, "dark")
        for page, name in ((alice, "alice"), (bob, "bob")):
            sign_in(page, live_url, f"{name}@example.com", name=name)
            page.goto(f"{live_url}/g/{connect_game}")
            expect(page.locator("[data-connection]")).to_have_text("Live")
            open_chat(page)
        for text in ("one", "two", "three"):
            alice.get_by_label("Message to the players").fill(text)
            alice.get_by_label("Message to the players").press("Enter")
            expect(lines(bob).last).to_have_text(text)

        in_thread(lambda: chat.hide(Message.objects.filter(seq=2).select_related("room")))
        for page in (alice, bob):
            expect(lines(page)).to_have_text(["one", "three"])
        in_thread(lambda: chat.show(Message.objects.filter(seq=2)
                                    .select_related("room", "author")))
        for page in (alice, bob):
            expect(lines(page)).to_have_text(["one", "two", "three"])
        shoot(bob, "chat-shown-again-390-dark")

        for page in (alice, bob):
            assert page.errors == [], page.errors  # type: ignore[attr-defined]
