"""Your own clock and every running clock are in view while you decide (issue #42, point 10),
in both games, on a phone (390×844) and a laptop (1366×900), in both themes: Cargo Express
in each phase that asks something of you (the pick, planning, a turn), Cargo Connect on
your turn. Checked twice: as the page opens, and with the last of your decision's controls
scrolled into view (where a player reading down to "Commit stack" has the page). The
clocks' boxes must lie inside the viewport. Axe-clean; screenshots `clocks-in-view-*`."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.actors import Actor
from games.kinds import get_kind
from games.turns.store import live
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import SCREENS, browser, new_page, shoot
from tests.clocks.support import play, timed_game

NAMES = ("alice", "bob", "carol")
KIND = get_kind("cargo-express")


def _users(user_model) -> dict:
    return {name: user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
            for name in NAMES}


def _decide(game_id: str, users: dict) -> None:
    """The first seat awaited decides as the Easy bot would (a whole decision)."""
    lg = live(services.get_game(game_id))
    seat = lg.acting()[0]
    token = lg.completion(seat) if lg.meta.steps else KIND.bot_decision(
        lg.redacted(seat), seat, "easy", 3)
    services.apply_turn(game_id, actor=Actor.member(users[NAMES[seat]]),
                        ply=lg.sequence(seat), token=token)


def _phase(game_id: str) -> str:
    return str(services.state_of(services.get_game(game_id))["phase"])


@pytest.fixture
def games(django_user_model, live_url):
    """Timed games (3+2) at each decision: Express's pick, planning and a turn (three
    members), and Connect with alice (Blue) to move and both clocks started. Each is given
    with the member who decides."""
    users = _users(django_user_model)
    seats = [Actor.member(users[name]) for name in NAMES]

    def express() -> str:
        return services.create_game(game_type="cargo-express", options={}, rated=False,
                                    time_control="3+2", seats=seats).id

    pick = express()
    acting = live(services.get_game(pick)).acting()[0]
    found = {"express-pick": (pick, NAMES[acting])}
    plan = express()
    while _phase(plan) == "pick":
        _decide(plan, users)
    found["express-plan"] = (plan, "alice")
    turn = express()
    while _phase(turn) != "turn":
        _decide(turn, users)
    acting = live(services.get_game(turn)).acting()[0]
    found["express-turn"] = (turn, NAMES[acting])
    connect = timed_game(users["alice"], users["bob"], "3+2")
    play(connect.id, users["alice"])
    play(connect.id, users["bob"])
    found["connect"] = (connect.id, "alice")
    return found


def _in_view(page: Page, selector: str, size: int) -> list[str]:
    """What is wrong with each element matching `selector` ([] when all are in view)."""
    height, width = SCREENS[size]["height"], SCREENS[size]["width"]
    wrong = []
    found = page.locator(selector)
    for i in range(found.count()):
        box = found.nth(i).bounding_box()
        if box is None:
            wrong.append(f"{selector} #{i} is not rendered")
        elif (box["y"] < 0 or box["y"] + box["height"] > height or box["x"] < 0
              or box["x"] + box["width"] > width):
            wrong.append(f"{selector} #{i} at {box} is outside {width}×{height}")
    return wrong


def _check_clocks(page: Page, size: int, what: str) -> None:
    viewer = page.evaluate("() => window.liveGame.state.viewer")
    own = f".clock[data-seat='{viewer}']"
    expect(page.locator(own)).to_have_count(1)
    if "pick" not in what:  # a fresh table's clocks start with its first decision
        assert page.locator(".clock.is-running").count() >= 1, what
    # Read until the boxes hold, for up to 5 s: a state frame arriving redraws the clocks,
    # and a box read at that instant is of an element already replaced ("not rendered").
    deadline = time.monotonic() + 5
    while True:
        problems = _in_view(page, own, size) + _in_view(page, ".clock.is-running", size)
        if not problems or time.monotonic() > deadline:
            break
        page.wait_for_timeout(100)
    assert not problems, f"{what}: {problems}"


def _scroll_to_the_last_control(page: Page) -> None:
    """Scroll the last visible button of the decision's controls into view, in one step of
    the page's own script: a state frame arriving redraws the controls, and a button found
    by one call and scrolled by the next may be gone by then (a CI run under load saw
    "Element is not attached to the DOM")."""
    scrolled = page.evaluate("""() => {
        const buttons = [...document.querySelectorAll("[data-controls] button")]
            .filter((button) => button.checkVisibility());
        const last = buttons[buttons.length - 1];
        if (!last) return false;
        last.scrollIntoView({block: "end", inline: "nearest"});
        return true;
    }""")
    assert scrolled, "no visible control to scroll to"


@pytest.mark.parametrize("size", [390, 1366])
def test_your_clock_and_the_running_clocks_are_in_view_while_you_decide(games, chromium_path,
                                                                         live_url, size):
    with browser(chromium_path) as opened:
        pages = {name: new_page(opened, size, "dark" if i % 2 else "light")
                 for i, name in enumerate(NAMES[:3])}
        signed: set[str] = set()
        for label, (game_id, name) in games.items():
            page = pages[name]
            if name not in signed:
                sign_in(page, live_url, f"{name}@example.com", name=name)
                signed.add(name)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.goto(f"{live_url}/g/{game_id}")
                expect(page.locator("[data-connection]")).to_have_text("Live")
                controls = page.locator("[data-controls]")
                expect(controls).to_be_visible()
                expect(page.locator("[data-status-line]")).to_contain_text("Your")
                _check_clocks(page, size, f"{label} {size} {scheme} on opening")
                _scroll_to_the_last_control(page)
                _check_clocks(page, size, f"{label} {size} {scheme} at the last control")
                shoot(page, f"clocks-in-view-{label}-{size}-{scheme}", full_page=False)
                if scheme == "dark":
                    assert_accessible(page, f"{label} {size} {scheme}")
        for page in pages.values():
            assert page.errors == [], page.errors  # type: ignore[attr-defined]
