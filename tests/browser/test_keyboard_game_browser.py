"""A live game played with the keyboard alone, in two browsers (no mouse click anywhere):
drops, every card with its targets (Lockdown on a column, Re-Routing a core, Rotation,
Purge on a row, Damage on two cells), an unload chosen core by core on the bay, and a turn
ended without the unload it offered. Focus moves to the panel that opens, goes back to
the card on Escape, stays on the board after a turn (never on the page itself) and goes to
the columns when the next turn comes. A screen reader's view: named cells ("a1, Blue
core") and the other player's turn announced in words, with the result at the end."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.devices import PASSWORD, devices
from tests.browser.keyboard import (
    choose_cell,
    choose_token,
    drop,
    focused,
    open_card,
    tab_to,
)
from tests.browser.screens import shoot
from tests.games.support import new_game, scripted_tokens
from tests.review.support import play_out


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
            for name in ("alice", "bob")]


@pytest.fixture
def game_id(players):
    return new_game(players[0], players[1], size=5).id


def keyboard_sign_in(page: Page, base: str, name: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Login").fill(f"{name}@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Password").press("Enter")
    expect(page.get_by_role("navigation", name="Main")).to_contain_text(name)


def turns_shown(page: Page, count: int) -> None:
    expect(page.locator(".turn-list .tok")).to_have_count(count)


def focus_on_board(page: Page) -> None:
    """After a turn, focus is on the board (the bay or a target), not on the page."""
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.closest('.bay-frame')")


def my_turn_focus_on_columns(page: Page) -> None:
    """The player's turn came: focus went from the board to the columns."""
    page.wait_for_function("() => document.activeElement?.dataset?.column")


def test_a_game_played_with_the_keyboard_alone(game_id, chromium_path, live_url):
    with devices(chromium_path, (1366, 1366)) as (alice, bob):
        keyboard_sign_in(alice, live_url, "alice")
        keyboard_sign_in(bob, live_url, "bob")
        for page in (alice, bob):
            page.goto(f"{live_url}/g/{game_id}")
            expect(page.locator("[data-connection]")).to_have_text("Live")
        pages = {"alice": alice, "bob": bob}
        ply = 0

        def played(who: str, token: str) -> None:
            """The turn arrived on both pages; the player's focus is on the board."""
            nonlocal ply
            ply += 1
            for page in (alice, bob):
                turns_shown(page, ply)
                expect(page.locator(".turn-list .tok").last).to_have_text(token)
            focus_on_board(pages[who])
            assert not focused(pages[who])["body"]

        # A screen reader hears every cell by name.
        expect(alice.get_by_role("cell", name="a1, empty")).to_have_count(1)
        expect(alice.get_by_role("table", name="Cargo Bay, 5 by 5")).to_be_visible()

        # Turn 1: Alice Tabs from the top of the page to the columns and drops into a.
        expect(alice.locator("[data-status-line]")).to_have_text("Your turn")
        assert focused(alice)["body"]  # the page does not move focus on opening
        tab_to(alice, lambda f: f.get("column") is not None)
        drop(alice, "a")
        played("alice", "a")
        expect(alice.get_by_role("cell", name="a1, Blue core")).to_have_count(1)
        # Bob's page announced it in words, and his turn.
        expect(bob.locator("[data-announce]")).to_have_text(
            "Blue dropped into column a (a1). Your turn.")

        drop(bob, "b")
        played("bob", "b")
        my_turn_focus_on_columns(alice)
        expect(alice.get_by_role("cell", name="b1, Orange core")).to_have_count(1)
        for who, column in (("alice", "a"), ("bob", "b"), ("alice", "a")):
            my_turn_focus_on_columns(pages[who])
            drop(pages[who], column)
            played(who, column)

        # Turn 6: Bob plays Corridor Lockdown: focus goes to the panel's first corridor.
        my_turn_focus_on_columns(bob)
        now = open_card(bob, "L")
        assert now["in_controls"] and now["token"] == "La", now
        expect(bob.get_by_role("heading", name="Corridor Lockdown")).to_be_visible()
        shoot(bob, "game-keyboard-card-panel-1366")
        choose_token(bob, "Lc")
        played("bob", "Lc")
        expect(alice.locator("[data-announce]")).to_have_text(
            "Orange MagLocked column c. Your turn.")
        expect(alice.get_by_role("cell", name="c1, empty, MagLocked")).to_have_count(1)

        # Turn 7: Alice drops a4; the unload step opens with focus on its first AppCon. She
        # goes back to the bay (Shift+Tab) and picks the four cores with the arrow keys.
        my_turn_focus_on_columns(alice)
        drop(alice, "a")
        expect(alice.get_by_role("heading", name="Unload an AppCon?")).to_be_visible()
        now = focused(alice)
        assert now["unload"] == "a1a2a3a4" and now["in_controls"], now
        alice.keyboard.press("Shift+Tab")
        assert focused(alice)["cell"], focused(alice)
        for cell in ("a1", "a2", "a3", "a4"):
            choose_cell(alice, cell)
        now = focused(alice)
        assert now["action"] == "unload" and now["text"] == "Unload I (+6)", now
        shoot(alice, "game-keyboard-unload-1366")
        alice.keyboard.press("Enter")
        played("alice", "a+a1a2a3a4")
        expect(alice.locator('.player.blue [data-points="blue"]')).to_contain_text("8")

        my_turn_focus_on_columns(bob)
        drop(bob, "b")
        played("bob", "b")
        my_turn_focus_on_columns(alice)
        drop(alice, "d")
        played("alice", "d")

        # Turn 10: Bob re-routes Alice's core at d1 from the panel's list.
        my_turn_focus_on_columns(bob)
        now = open_card(bob, "R")
        assert now["token"] == "Rd1", now
        bob.keyboard.press("Enter")
        played("bob", "Rd1")
        expect(alice.locator("[data-announce]")).to_have_text(
            "Orange re-routed the core at d1. Your turn.")

        # Turn 11: Alice opens Lockdown, changes her mind (Escape: focus back on the card),
        # and rotates the bay right instead.
        my_turn_focus_on_columns(alice)
        open_card(alice, "L")
        alice.keyboard.press("Escape")
        assert focused(alice)["card"] == "L", focused(alice)
        now = open_card(alice, "S")
        assert now["token"] == "S<", now
        choose_token(alice, "S>")
        played("alice", "S>")

        # Turn 12: Bob purges row 5; that offers an unload, which he declines (End turn).
        my_turn_focus_on_columns(bob)
        open_card(bob, "P")
        choose_token(bob, "P5")
        expect(bob.get_by_role("heading", name="Unload an AppCon?")).to_be_visible()
        tab_to(bob, lambda f: f.get("action") == "skip", limit=20)
        bob.keyboard.press("Enter")
        played("bob", "P5")

        # Turn 13: Alice damages a1 and b1: focus goes to the first cell offered.
        my_turn_focus_on_columns(alice)
        now = open_card(alice, "D")
        assert now["cell"] and now["in_bay"], now
        expect(alice.locator("[data-controls]")).to_contain_text("Choose the first of two")
        choose_cell(alice, "a1")
        expect(alice.locator("[data-controls]")).to_contain_text("First: a1")
        choose_cell(alice, "b1")
        played("alice", "Da1b1")
        expect(bob.locator("[data-announce]")).to_have_text(
            "Blue damaged a1 and b1. Your turn.")
        shoot(bob, "game-keyboard-after-1366")
        assert alice.errors == [] and bob.errors == []  # type: ignore[attr-defined]


@pytest.fixture
def last_turn(players):
    """A game one turn from its end, Blue (alice) to play it."""
    tokens = scripted_tokens(5)
    if len(tokens) % 2 == 0:
        raise AssertionError("the scripted game must end on Blue's turn")
    game = play_out(new_game(players[0], players[1], size=5), tokens[:-1], *players)
    return game.id, tokens[-1]


def test_the_result_is_announced_as_the_last_turn_lands(last_turn, chromium_path, live_url):
    game_id, token = last_turn
    with devices(chromium_path, (1366, 1366)) as (alice, bob):
        keyboard_sign_in(alice, live_url, "alice")
        for page in (alice, bob):  # bob's page is a spectator's, signed out
            page.goto(f"{live_url}/g/{game_id}")
            expect(page.locator("[data-connection]")).to_have_text("Live")
        phase1, _, cells = token.partition("+")
        tab_to(alice, lambda f: f.get("column") is not None)
        drop(alice, phase1)
        if cells:
            tab_to(alice, lambda f: f.get("unload") == cells, limit=20)
            alice.keyboard.press("Enter")
            tab_to(alice, lambda f: f.get("action") == "unload", limit=10)
            alice.keyboard.press("Enter")
        for page in (alice, bob):
            expect(page.locator("[data-announce]")).to_contain_text("Shift over:")
            expect(page.locator("[data-audit]")).to_be_visible()
        focus_on_board(alice)
        assert alice.errors == [] and bob.errors == []  # type: ignore[attr-defined]
