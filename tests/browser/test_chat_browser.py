"""The table chat in the browser (issue #29): two players and a spectator on a Cargo Connect
game, and on a Cargo Express game. The players talk beside the board; the spectator's
room reaches neither player's page (not even a frame on their sockets) until the game is
over, then both pages show it; text stays text (no markup, no links); a mute takes a
member's lines away; the keyboard alone sends a message; axe finds nothing; screenshots
at 390 and 1366 px in both themes."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from playwright.sync_api import Page, expect

from games import services
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.games.express_support import express_game
from tests.games.support import member, new_game

TIP = "psst: Blue should drop in column a"
MARKUP = 'hello <b>bob</b> <img src=x onerror="window.pwned=1"> https://example.com'


@pytest.fixture
def people(django_user_model):
    return {name: django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
            for name in ("alice", "bob", "carol")}


@pytest.fixture
def connect_game(people):
    return new_game(people["alice"], people["bob"], size=5).id


@pytest.fixture
def express_id(people):
    return express_game([people["alice"], people["bob"]]).id


def in_thread(work) -> None:
    """Database work off Playwright's event loop (Django refuses a query there)."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as error:  # noqa: BLE001  (re-raised below)
            errors.append(error)
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout=60)
    if errors:
        raise errors[0]


def received(page: Page) -> list[str]:
    """Every frame the page's sockets receive, kept as text."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        payload if isinstance(payload, str) else payload.decode())))
    return frames


def open_chat(page: Page) -> None:
    chat = page.locator("[data-chat]")
    if chat.get_attribute("open") is None:  # closed on phones: open it
        chat.locator("summary").click()
    expect(chat.locator("[data-chat-form]")).to_be_visible()


def room(page: Page, name: str):
    return page.locator(f'[data-chat-room="{name}"]')


def test_two_players_and_a_spectator_talk_at_a_cargo_connect_table(
        connect_game, people, chromium_path, live_url):
    with browser(chromium_path) as opened:
        alice = new_page(opened, 1366, "dark")
        bob = new_page(opened, 390, "light")
        carol = new_page(opened, 390, "dark")
        seen = {"alice": received(alice), "bob": received(bob)}
        for page, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
            sign_in(page, live_url, f"{name}@example.com", name=name)
            page.goto(f"{live_url}/g/{connect_game}")
            expect(page.locator("[data-connection]")).to_have_text("Live")
        expect(bob.locator("[data-chat]")).not_to_have_attribute("open", "")  # phone: closed
        for page in (alice, bob, carol):
            open_chat(page)
        expect(room(alice, "spectators")).to_be_hidden()
        expect(alice.locator("[data-chat-note]")).to_contain_text(
            "spectators' chat opens to the players when the game ends")
        expect(alice.get_by_label("Message to the players")).to_be_visible()
        expect(carol.get_by_label("Message to the spectators")).to_be_visible()

        # The keyboard alone: Tab to the box, type, Enter.
        alice.get_by_label("Message to the players").focus()
        alice.keyboard.type(MARKUP)
        alice.keyboard.press("Enter")
        for page in (alice, bob, carol):
            line = room(page, "players").locator(".chat-line").last
            expect(line.locator(".chat-text")).to_have_text(MARKUP)
            expect(line.locator(".chat-author")).to_have_text("alice")
            expect(room(page, "players").locator("b, img, a")).to_have_count(0)
        assert bob.evaluate("() => window.pwned") is None
        expect(carol.locator("[data-chat-announce]")).to_have_text(f"alice (players): {MARKUP}")
        bob.get_by_label("Message to the players").fill("hi alice, good luck")
        bob.get_by_role("button", name="Send").click()
        expect(room(alice, "players").locator(".chat-line").last).to_contain_text("good luck")

        carol.get_by_label("Message to the spectators").fill(TIP)
        carol.get_by_label("Message to the spectators").press("Enter")
        expect(room(carol, "spectators").locator(".chat-text")).to_have_text([TIP])
        bob.wait_for_timeout(800)
        for name, page in (("alice", alice), ("bob", bob)):
            expect(room(page, "spectators")).to_be_hidden()
            assert page.locator(f"text={TIP}").count() == 0
            assert not any("drop in column a" in frame for frame in seen[name]), name

        for page, label in ((alice, "player, 1366, dark"), (bob, "player, 390, light"),
                            (carol, "spectator, 390, dark")):
            assert_accessible(page, f"game with chat as {label}")
        shoot(alice, "chat-connect-player-1366-dark")
        shoot(bob, "chat-connect-player-390-light")
        shoot(carol, "chat-connect-spectator-390-dark")

        # The game ends: the spectators' room opens to the players.
        in_thread(lambda: services.resign(connect_game, actor=member(people["bob"])))
        for page in (alice, bob):
            expect(room(page, "spectators")).to_be_visible()
            expect(room(page, "spectators").locator(".chat-text")).to_have_text([TIP])
        # alice mutes carol from the message's menu: carol's lines leave her page.
        line = room(alice, "spectators").locator(".chat-line").first
        line.get_by_role("button", name="Report or mute carol").click()
        line.get_by_role("button", name="Mute carol", exact=True).click()
        expect(room(alice, "spectators").locator(".chat-line")).to_have_count(0)
        expect(alice.locator("[data-chat-muted]")).to_contain_text("Muted: carol")
        carol.get_by_label("Message to the spectators").fill("well played both")
        carol.get_by_label("Message to the spectators").press("Enter")
        expect(room(bob, "spectators").locator(".chat-text").last).to_have_text(
            "well played both")
        alice.wait_for_timeout(500)
        expect(room(alice, "spectators").locator(".chat-line")).to_have_count(0)
        # bob reports alice's message.
        first = room(bob, "players").locator(".chat-line").first
        first.get_by_role("button", name="Report or mute alice").click()
        first.get_by_role("button", name="Report", exact=True).click()
        expect(bob.locator("[data-chat-error]")).to_contain_text("Reported")
        assert_accessible(alice, "finished game with chat as player, 1366, dark")
        shoot(bob, "chat-connect-over-390-light")
        for page in (alice, bob, carol):
            assert page.errors == [], page.errors  # type: ignore[attr-defined]


def test_the_chat_beside_cargo_express_and_for_a_signed_out_visitor(
        express_id, chromium_path, live_url):
    with browser(chromium_path) as opened:
        alice = new_page(opened, 1366, "light")
        bob = new_page(opened, 390, "dark")
        carol = new_page(opened, 1366, "dark")
        visitor = new_page(opened, 390, "light")
        for page, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
            sign_in(page, live_url, f"{name}@example.com", name=name)
        for page in (alice, bob, carol, visitor):
            page.goto(f"{live_url}/g/{express_id}")
            expect(page.locator("[data-connection]")).to_have_text("Live")
        for page in (alice, bob, carol):
            open_chat(page)
        alice.get_by_label("Message to the players").fill("which character will you pick?")
        alice.get_by_label("Message to the players").press("Enter")
        carol.get_by_label("Message to the spectators").fill("the Engineer is strong here")
        carol.get_by_label("Message to the spectators").press("Enter")
        visitor.locator("[data-chat] summary").click()
        expect(room(visitor, "players").locator(".chat-text")).to_have_text(
            ["which character will you pick?"])
        expect(room(visitor, "spectators").locator(".chat-text")).to_have_text(
            ["the Engineer is strong here"])
        expect(visitor.locator("[data-chat-form]")).to_be_hidden()
        expect(visitor.locator("[data-chat-note]")).to_contain_text("Sign in to chat")
        expect(room(bob, "players").locator(".chat-text")).to_have_text(
            ["which character will you pick?"])
        expect(room(bob, "spectators")).to_be_hidden()
        for page, label in ((alice, "1366-light"), (bob, "390-dark"), (carol, "1366-dark"),
                            (visitor, "390-light")):
            assert_accessible(page, f"Cargo Express with chat, {label}")
        shoot(alice, "chat-express-player-1366-light")
        shoot(bob, "chat-express-player-390-dark")
        shoot(carol, "chat-express-spectator-1366-dark")
        shoot(visitor, "chat-express-visitor-390-light")
        for page in (alice, bob, carol, visitor):
            assert page.errors == [], page.errors  # type: ignore[attr-defined]
