"""A pre-turn on the Cargo Express page (static/js/cargo-express/preturn.js): alice waits
for her next turn while bob plays his; she builds her next turn from the server's choices
with the keyboard alone, queues it, and sees it played the moment bob's turn ends. Bob's
page never shows it. Both screens and themes; axe finds nothing; screenshots
express-preturn-*."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.actors import Actor
from games.models import Turn
from games.turns.store import live
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.browser.test_chat_browser import in_thread
from tests.platform.test_express_wire import decision_of

NAMES = ("alice", "bob")


@pytest.fixture
def waiting_game(live_url, django_user_model):
    """alice and bob, played by their Easy bots' choices up to a turn of bob's begun while
    alice waits for a turn of hers with a queueable whole turn (a path and an action)."""
    users = [django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in NAMES]
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(u) for u in users])
    lg = live(game)
    while True:
        begun = lg.turn_key()
        if begun is not None and begun[0] == 1:
            choices = lg.next_turn(0)
            if choices and any(len(t.split(".")) == 2 and t[0] not in "^" and
                               not t.endswith("s") for t in choices["turns"]):
                return game.id
        seat, seq, token = decision_of(lg)
        services.apply_turn(game.id, actor=Actor.member(users[seat]), ply=seq, token=token)
        lg.apply(seat, token)


def press(page: Page, selector: str) -> None:
    """Reach a control with Tab from the panel's heading and press Enter on it."""
    page.locator(selector).first.focus()
    page.keyboard.press("Enter")


@pytest.mark.parametrize("screen,theme", [(390, "light"), (1366, "dark")])
def test_a_waiting_seat_queues_its_next_turn_with_the_keyboard(waiting_game, chromium_path,
                                                               live_url, screen, theme):
    game = waiting_game
    with browser(chromium_path) as opened:
        alice = new_page(opened, screen, theme, motion=False)
        bob = new_page(opened, 1366, "light", motion=False)
        for name, page in ((NAMES[0], alice), (NAMES[1], bob)):
            sign_in(page, live_url, f"{name}@example.com", name=name)
            page.goto(f"{live_url}/g/{game}")
            expect(page.locator("[data-connection]")).to_have_text("Live")
        panel = alice.locator("[data-preturn]")
        expect(panel).to_be_visible()
        expect(bob.locator("[data-preturn]")).to_be_hidden()
        nxt = alice.evaluate("() => window.liveGame.state.legal.next")
        whole = next(t for t in nxt["turns"] if len(t.split(".")) == 2
                     and t[0] != "^" and not t.endswith("s"))
        path, action = whole.split(".")
        press(alice, f'[data-queue-step="{path}"]')
        expect(panel.locator(f'[data-queue-step="{action}"]')).to_be_visible()
        press(alice, f'[data-queue-step="{action}"]')
        shoot(alice, f"express-preturn-draft-{screen}-{theme}")
        assert_accessible(alice, f"express pre-turn draft, {theme}, {screen}")
        press(alice, "[data-queue-end]")
        expect(panel.locator("[data-queued]")).to_have_attribute(
            "data-queued", f"{whole}.end")
        shoot(alice, f"express-preturn-queued-{screen}-{theme}")
        assert "data-queued" not in bob.content() and whole not in bob.content()

        # bob ends his turn: alice's queued turn is played at her card's reveal
        played: list[str] = []

        def bobs_turn() -> None:
            lg = live(services.get_game(game))
            bob_user = services.get_game(game).seat_list[1].user
            begun = lg.turn_key()
            assert begun is not None and begun[0] == 1
            while lg.in_turn(1, begun[1]):  # bob's turn only (alice's is played after it)
                seat, seq, token = decision_of(lg)
                services.apply_turn(game, actor=Actor.member(bob_user), ply=seq, token=token)
                lg = live(services.get_game(game))
            played.extend(Turn.objects.filter(game_id=game, seat=0).order_by("-ply")
                          .values_list("token", flat=True)[:2])

        in_thread(bobs_turn)
        expect(panel.locator("[data-preturn-status]")).to_contain_text(
            "Played from your queue")
        assert played in ([action, path], ["end", action])
        shoot(alice, f"express-preturn-played-{screen}-{theme}")
        assert not alice.errors and not bob.errors
