"""Cargo Express on the live game page (the shell plus static/js/cargo-express/view.js): two
members and ExpressBot Easy at one table, a spectator watching. The people pick, plan and
play their turns through the page's controls (the first legal choice each time) into the
second round; alice reloads mid-planning and sees her own stack, then replaces it; no page
has a script error; nobody sees another seat's stack; axe finds nothing; screenshots
express-live-*. The bot plays in-process (`eager`)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.actors import Actor
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.games.bot_support import eager

__all__ = ["eager"]
NAMES = ("alice", "bob")


def make_game(django_user_model, bot: bool) -> str:
    users = [django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in NAMES]
    seats = [Actor.member(user) for user in users] + ([Actor.bot("easy")] if bot else [])
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=seats)
    return game.id


@pytest.fixture
def express_game(eager, live_url, django_user_model):
    """alice, bob and ExpressBot Easy."""
    return make_game(django_user_model, bot=True)



def state(page: Page) -> dict[str, Any]:
    return page.evaluate("() => window.liveGame.state")


def decide(page: Page) -> str | None:
    """Make the first legal choice the page offers, if it offers one; what was clicked."""
    controls = page.locator("[data-controls]")
    if not controls.is_visible():
        return None
    for selector in ("[data-pick]", "[data-swap]", "[data-step^=s]:not([data-step=s])",
                     "[data-path]", "[data-step=end]", "[data-step]"):
        found = controls.locator(f"{selector}:not(:disabled):visible")
        if found.count():
            choice = found.first.get_attribute("data-pick") or found.first.inner_text()
            found.first.click()
            return choice
    if controls.locator(".xp-card[aria-pressed=true]").count():
        return None  # committed: it could be replaced, but one stack is enough here
    if controls.locator(".xp-card:not(.is-unusable)").count() >= 3:
        for i in range(3):
            controls.locator(".xp-card:not(.is-unusable)").nth(i).click()
        controls.locator("[data-commit]").click()
        return "commit"
    return None


def test_two_people_and_a_bot_play_into_the_second_round(express_game, chromium_path,
                                                           live_url):
    game = express_game
    with browser(chromium_path) as opened:
        seats = [new_page(opened, 1366, "dark"), new_page(opened, 390, "light")]
        spectator = new_page(opened, 1366, "light")
        for name, page in zip(NAMES, seats, strict=True):
            sign_in(page, live_url, f"{name}@example.com", name=name)
        for page in (*seats, spectator):
            page.goto(f"{live_url}/g/{game}")
            expect(page.locator("[data-connection]")).to_have_text("Live")
            expect(page.locator(".xp-space")).to_have_count(14)
        expect(spectator.locator("[data-controls]")).to_be_hidden()
        expect(spectator.locator("[data-mine]")).to_be_hidden()
        expect(seats[0].locator("[data-mine]")).to_be_visible()

        shots: set[str] = set()
        for _ in range(80):
            if state(seats[0]).get("round", 1) >= 2:
                break
            moved = False
            for i, page in enumerate(seats):
                phase = state(page).get("phase")
                if phase == "plan" and f"plan-{i}" not in shots:
                    shots.add(f"plan-{i}")
                    width = 1366 if i == 0 else 390
                    shoot(page, f"express-live-plan-{width}-{'dark' if i == 0 else 'light'}")
                    assert_accessible(page, f"live plan seat {i}")
                if i == 1 and phase == "plan" and "reload" not in shots:
                    continue  # bob plans after alice has reloaded (planning stays open)
                choice = decide(page)
                if choice:
                    moved = True
                    page.wait_for_timeout(150)
                if choice == "commit" and i == 0 and "reload" not in shots:
                    shots.add("reload")  # alice reloads mid-planning: her stack, no one else's
                    expect(page.locator("[data-controls] h2")).to_have_text(
                        "Your stack is committed")
                    page.reload()
                    expect(page.locator("[data-connection]")).to_have_text("Live")
                    expect(page.locator("[data-mine]")).to_contain_text("(top first)")
                    expect(page.locator("[data-controls] h2")).to_have_text(
                        "Your stack is committed")
                    bob = seats[1].locator(".xp-seat-panel[data-seat='0'] [data-cards]")
                    expect(bob).to_contain_text("ready: 3 face down")
                    assert "A1" not in bob.inner_text()
                    # ...and replaces it while planning is open (if bob has not closed it)
                    if state(page).get("phase") == "plan":
                        page.locator("[data-controls] [data-clear]").click()
                        for card in ("A3", "A2", "A1"):
                            page.locator(f"[data-card={card}]").click()
                        page.locator("[data-commit]").click()
                        expect(page.locator("[data-mine]")).to_contain_text("A3, A2, A1")
            if phase == "turn" and "turn" not in shots:
                shots.add("turn")
                shoot(spectator, "express-live-turn-spectator-1366-light")
                assert_accessible(spectator, "live turn spectator")
            if not moved:
                seats[0].wait_for_timeout(300)

        assert state(seats[0]).get("round", 1) >= 2, "the table did not reach round 2"
        # The frames came as diffs (issue #45), each applied to the state the page's
        # connection held: the page's state is the one rebuilt, at the same revision.
        for page in (*seats, spectator):
            page.wait_for_function("() => window.liveGame.socket.held.state?.rev"
                                   " === window.liveGame.state.rev")
            both = page.evaluate("() => ({applied: window.liveGame.socket.held.applied, "
                                 "held: window.liveGame.socket.held.state, "
                                 "shown: window.liveGame.state})")  # at one instant
            assert both["applied"] > 10, both["applied"]
            if both["held"]["rev"] == both["shown"]["rev"]:  # (else a bot moved between)
                assert {k: both["shown"][k] for k in both["held"]} == both["held"]
        # A spectator never holds a plan, a hand or an open contract of anyone.
        for part in state(spectator).get("areas", []):
            assert part.get("plan") is None and part.get("hand") is None
        log = seats[0].locator("[data-log]").inner_text()
        assert "Nothing yet" not in log
        shoot(seats[0], "express-live-round2-1366-dark")
        # The log the page kept from the frames' events (their states do not repeat it) is
        # the one a reload gets in its snapshot, when nothing was decided meanwhile.
        ply = state(seats[0])["ply"]
        seats[0].reload()
        expect(seats[0].locator("[data-connection]")).to_have_text("Live")
        if state(seats[0])["ply"] == ply:
            assert seats[0].locator("[data-log]").inner_text() == log
        for page in (*seats, spectator):
            assert page.errors == [], page.errors  # type: ignore[attr-defined]


def test_the_live_state_carries_each_seats_area(express_game, chromium_path, live_url):
    """The kind's part of each seat reaches the page (`areas`): locomotives on the track,
    each seat's engine in its panel."""
    with browser(chromium_path) as opened:
        page = new_page(opened, 1366, "dark")
        page.goto(f"{live_url}/g/{express_game}")
        expect(page.locator("[data-connection]")).to_have_text("Live")
        assert all("engine" in part and "space" in part for part in state(page)["areas"])
        expect(page.locator(".xp-space .xp-loco")).to_have_count(3)
        expect(page.locator(".xp-seat-panel")).to_have_count(3)
        expect(page.locator(".xp-seat-panel").first).to_contain_text("A, 1 car at most")
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_page_connects_without_a_protocol_error(express_game, chromium_path, live_url):
    with browser(chromium_path) as opened:
        page = new_page(opened, 1366, "dark")
        page.goto(f"{live_url}/g/{express_game}")
        expect(page.locator("[data-connection]")).to_have_text("Live")
        page.wait_for_timeout(1500)
        expect(page.locator("[data-message]")).not_to_contain_text("sync", timeout=100)
        assert "ply" in state(page)


@pytest.fixture
def timed_game(eager, live_url, django_user_model):
    users = [django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in NAMES]
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[*(Actor.member(user) for user in users),
                                       Actor.bot("easy")], time_control="5+3")
    return game.id


def test_each_persons_clock_stands_in_the_clock_bar(timed_game, chromium_path, live_url):
    """Every clock in one bar above the track (issue #42, point 10: in the seat panels,
    a phone's own clock was below the track and the controls); yours says "You"."""
    with browser(chromium_path) as opened:
        page = new_page(opened, 390, "dark")
        sign_in(page, live_url, "alice@example.com", name="alice")
        page.goto(f"{live_url}/g/{timed_game}")
        expect(page.locator("[data-connection]")).to_have_text("Live")
        clocks = page.locator("[data-clock-bar] .clock")
        expect(clocks).to_have_count(2)  # the bot has none
        expect(page.locator(".xp-seat-panel .clock")).to_have_count(0)
        expect(page.locator("[data-clock-bar] .clock.is-mine")).to_contain_text("You")
        expect(page.locator("[data-clock-bar] .clock[data-seat='1']")).to_contain_text("bob")
        for _ in range(6):  # decisions redraw the panels; the clocks stay in the bar
            if decide(page):
                page.wait_for_timeout(300)
        expect(clocks).to_have_count(2)
        shoot(page, "express-live-timed-390-dark")
        assert_accessible(page, "live timed 390 dark")
        assert page.errors == []  # type: ignore[attr-defined]
