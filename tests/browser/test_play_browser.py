"""Two players in two browsers: a challenge by link, then a live game on the game page.

Each page must show the other player's turn without reloading (WebSocket, served by the
uvicorn test server of conftest.py): drops, a card with its choices, an unload offered from
`options`, a refused turn, a resign with confirmation, the Final Audit and a rematch.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.games.support import new_game

from . import shared

PASSWORD = "a-long-cargo-pass"


@pytest.fixture
def players(django_user_model):
    return [
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("alice", "bob")
    ]


@pytest.fixture
def two_browsers(players, chromium_path, live_url):
    """Two fresh browser contexts (separate cookies), one per player."""
    with shared.lease(chromium_path) as browser:
        pages = []
        for _ in players:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.set_default_timeout(10_000)
            page.errors = []
            page.on("pageerror", lambda error, page=page: page.errors.append(str(error)))
            pages.append(page)
        yield pages


def sign_in(page, base, email):
    page.goto(base + "/accounts/login/")
    page.get_by_label("Login").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("navigation", name="Main")).to_contain_text(email.split("@")[0])


def module(page, kind, cell):
    return page.locator(f'.gbay-modules .module.{kind}[data-cell="{cell}"]')


def drop(page, column):
    page.locator(f'.target.column[data-column="{column}"]').click()


def your_turn(page):
    expect(page.locator("[data-status-line]")).to_have_text("Your turn")


def test_two_players_play_live(two_browsers, live_url):
    alice, bob = two_browsers
    sign_in(alice, live_url, "alice@example.com")
    sign_in(bob, live_url, "bob@example.com")

    # Alice challenges by link: a 5×5 bay, Blue for her.
    alice.goto(live_url + "/play/")
    seek_form = alice.locator("form.seek-form").first
    seek_form.get_by_role("radio", name="5×5").check()
    seek_form.get_by_role("radio", name="Blue").check()
    alice.get_by_role("button", name="Challenge a friend by link").click()
    expect(alice).to_have_url(re.compile(r"/challenge/\w{10}$"))
    link = alice.url

    # Bob follows the link and accepts; both land on the game page.
    bob.goto(link)
    bob.get_by_role("button", name="Accept and play").click()
    expect(bob).to_have_url(re.compile(r"/g/\w{10}$"))
    expect(alice).to_have_url(bob.url, timeout=15_000)
    for page in (alice, bob):
        expect(page.locator("[data-connection]")).to_have_text("Live")
        expect(page.locator(".gbay-slots .slot")).to_have_count(25)
    your_turn(alice)
    expect(bob.locator("[data-status-line]")).to_contain_text("to move")
    expect(bob.locator(".target.column:enabled")).to_have_count(0)

    # Drops, each seen by the other page without a reload.
    for ply, (page, other, column, cell) in enumerate([
        (alice, bob, "a", "a1"), (bob, alice, "b", "b1"),
        (alice, bob, "a", "a2"), (bob, alice, "b", "b2"),
        (alice, bob, "a", "a3"),
    ]):
        your_turn(page)
        drop(page, column)
        kind = "blue" if ply % 2 == 0 else "orange"
        expect(module(other, kind, cell)).to_be_visible()
        expect(module(page, kind, cell)).to_be_visible()
        expect(other.locator(".turn-list .tok")).to_have_count(ply + 1)

    # A refused turn (a stale ply sent by hand): the message shows, nothing changes.
    your_turn(bob)
    bob.evaluate("cargoGame.socket.sendTurn(0, 'c')")
    expect(bob.locator("[data-message]")).to_have_class(re.compile("is-error"))
    expect(bob.locator("[data-message]")).not_to_be_empty()
    expect(bob.locator(".turn-list .tok")).to_have_count(5)
    your_turn(bob)

    # Bob plays a card with a choice: Corridor Lockdown on column c. Alice sees the MagLock.
    bob.locator(".card-buttons button[data-card=L]").click()
    bob.locator('button[data-token="Lc"]').click()
    for page in (alice, bob):
        expect(page.locator(".maglock")).to_have_attribute("aria-label", "MagLock on column c")
    expect(alice.locator('.player.orange .hand li[data-card="L"]')).to_have_class("is-spent")
    expect(alice.locator('.target.column[data-column="c"]')).to_be_disabled()

    # Alice drops a4: the page offers the I it makes (from `options`), she picks it on the bay.
    your_turn(alice)
    drop(alice, "a")
    expect(alice.get_by_role("heading", name="Unload an AppCon?")).to_be_visible()
    unload_button = alice.locator("button[data-action=unload]")
    expect(unload_button).to_be_disabled()
    for cell in ("a1", "a2", "a3", "a4"):
        alice.locator(f'.target.cell[data-cell="{cell}"]').click()
    expect(unload_button).to_have_text("Unload I (+6)")
    unload_button.click()
    for page in (alice, bob):
        expect(page.locator('.player.blue [data-points="blue"]')).to_contain_text("8")
        expect(page.locator('.player.blue .shelf li[data-shape="I"]')).to_have_attribute(
            "data-chit", "gold")
        expect(module(page, "empty", "a4")).to_be_visible()
    expect(bob.locator(".turn-list .tok").last).to_have_text("a+a1a2a3a4")

    # Bob plays Cargo Damage by clicking two side-by-side cells.
    your_turn(bob)
    bob.locator(".card-buttons button[data-card=D]").click()
    bob.locator('.target.cell[data-cell="a1"]').click()
    expect(bob.locator('.target.cell[data-cell="c1"]')).to_be_disabled()
    bob.locator('.target.cell[data-cell="b1"]').click()
    expect(alice.locator(".turn-list .tok").last).to_have_text("Da1b1")
    # a1 and b1 destroyed; the Empty Cans above a1 and the core above b1 fell one space.
    expect(module(alice, "empty", "a4")).to_have_count(0)
    expect(module(alice, "empty", "a3")).to_be_visible()
    expect(module(alice, "orange", "b1")).to_be_visible()
    expect(module(alice, "orange", "b2")).to_have_count(0)

    # Alice resigns, after confirming; both see the Final Audit.
    your_turn(alice)
    alice.locator("[data-action=resign]").click()
    alice.get_by_role("button", name="Keep playing").click()
    expect(alice.locator("[data-audit]")).to_be_hidden()
    alice.locator("[data-action=resign]").click()
    alice.locator("dialog").get_by_role("button", name="Resign").click()
    for page in (alice, bob):
        audit = page.locator("[data-audit]")
        expect(audit).to_be_visible()
        expect(audit).to_contain_text("Final Audit")
        expect(audit).to_contain_text("bob (Orange) wins")
        expect(audit).to_contain_text("Blue resigned")
        expect(page.locator("[data-action=resign]")).to_be_hidden()

    # Rematch: Alice offers, Bob sees the offer live and accepts; both go to the new game.
    old_url = alice.url
    alice.locator("button[data-action=rematch]").click()
    expect(alice.locator("[data-rematch]")).to_contain_text("waiting for your opponent")
    expect(bob.locator("[data-rematch]")).to_contain_text("alice offers a rematch")
    bob.locator("button[data-action=rematch]").click()
    for page in (alice, bob):
        expect(page).not_to_have_url(old_url)
        expect(page).to_have_url(re.compile(r"/g/[0-9A-Za-z]{10}$"))
    assert alice.url == bob.url

    assert alice.errors == [] and bob.errors == []


@pytest.fixture
def game_id(players):

    return new_game(players[0], players[1], size=5).id


def test_it_falls_back_to_http_when_websockets_are_blocked(game_id, two_browsers, live_url):
    alice, bob = two_browsers
    # Alice's network drops every WebSocket at once; Bob's works.
    alice.context.route_web_socket(re.compile(r".*/ws/.*"), lambda ws: ws.close())
    sign_in(alice, live_url, "alice@example.com")
    sign_in(bob, live_url, "bob@example.com")
    for page in (alice, bob):
        page.goto(f"{live_url}/g/{game_id}")
    expect(alice.locator("[data-connection]")).to_have_attribute("data-status", "polling")
    expect(bob.locator("[data-connection]")).to_have_text("Live")

    # Alice's turn goes by POST; Bob's page shows it live.
    your_turn(alice)
    drop(alice, "c")
    expect(module(alice, "blue", "c1")).to_be_visible()
    expect(module(bob, "blue", "c1")).to_be_visible()
    # Bob's turn reaches Alice by polling (every 2 s).
    your_turn(bob)
    drop(bob, "d")
    expect(module(alice, "orange", "d1")).to_be_visible()
    your_turn(alice)
    assert alice.errors == [] and bob.errors == []
