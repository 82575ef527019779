"""The test-only Bid kind (tests/platform/bid_kind.py: hidden, simultaneous bids) played by
three seats through the live pages, with its own view (tests/platform/web/), while a
spectator watches: each seat sees its own bid and no other seat's before the round's
reveal, in the page (the DOM) and in every socket frame it receives; the spectator sees no
bid at all until then. No page has a script or console error. Then the replay page, drawn
by the kind's replay module, for a spectator (everything, once the game is over) and as a
seat saw it (`?as=1`), on a phone and a laptop in both themes, axe clean, screenshots."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.actors import Actor
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.platform.bid_kind import Bid
from tests.platform.conftest import registered

NAMES = ("alice", "bob", "carol")
HIDDEN = (None, "?")


@pytest.fixture
def bid_kind():
    yield from registered(Bid())


@pytest.fixture
def bid_game(bid_kind, live_url, django_user_model):
    users = [django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in NAMES]
    game = services.create_game(game_type="bid", options={"rounds": 2}, rated=False,
                                seats=[Actor.member(user) for user in users])
    return game.id


def watched(page: Page) -> list[dict[str, Any]]:
    """Every JSON frame the page's sockets receive, from now on (and its console errors in
    `page.console_errors`)."""
    frames: list[dict[str, Any]] = []
    console: list[str] = []
    page.console_errors = console  # type: ignore[attr-defined]
    page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: frames.append(json.loads(payload))
        if isinstance(payload, str) else None))
    return frames


def bids_seen(value: Any) -> list[tuple[str, int, str]]:
    """Every bid a frame shows, at any depth: ("bids", seat, token) from a state's `bids`,
    ("event", seat, token) from a `bid` event, ("turns", index, token) from a `turns` list
    of tokens. "?" and empty are not bids."""
    found: list[tuple[str, int, str]] = []
    if isinstance(value, dict):
        if value.get("type") == "bid":
            found.append(("event", value["seat"], value["token"]))
        for key, inner in value.items():
            if key == "bids" and isinstance(inner, list):
                found += [("bids", s, b) for s, b in enumerate(inner) if b not in HIDDEN]
            elif key == "turns" and isinstance(inner, list) and all(
                    isinstance(t, str) for t in inner):
                found += [("turns", i, t) for i, t in enumerate(inner) if t != "?"]
            else:
                found += bids_seen(inner)
    elif isinstance(value, list):
        for inner in value:
            found += bids_seen(inner)
    return found


def assert_sees_only(frames: list[dict[str, Any]], viewer: int | None,
                     secrets: dict[int, str], start: int) -> None:
    """Before a round's reveal: the frames show `viewer`'s own bid of this round at most,
    never another seat's (`secrets`: this round's bids so far; `start`: the round's first
    ply, so earlier, revealed turns in a list of turns are not counted)."""
    assert not any(e.get("type") == "reveal" for f in frames for e in f.get("events", []))
    own = secrets.get(viewer) if viewer is not None else None
    for where, at, token in bids_seen(frames):
        if where == "turns":
            if at >= start:
                assert own is not None and token == own, (viewer, at, token)
        else:
            assert at == viewer and token == own, (viewer, where, at, token)


def bid_cells(page: Page) -> list[str]:
    return page.locator("[data-bids] tbody td[data-bid]").evaluate_all(
        "cells => cells.map(cell => cell.dataset.bid)")


def bid(page: Page, value: int) -> None:
    page.get_by_role("button", name=f"Bid {value}", exact=True).click()


def test_three_seats_bid_through_the_live_pages_and_a_spectator_sees_no_bid(
        bid_game, chromium_path, live_url):
    game = bid_game
    failures: list[str] = []
    with browser(chromium_path) as opened:
        seats = [new_page(opened, 1366, "dark", motion=False),
                 new_page(opened, 390, "light", motion=False),
                 new_page(opened, 390, "dark", motion=False)]
        spectator = new_page(opened, 1366, "light", motion=False)
        pages = [*seats, spectator]
        frames = [watched(page) for page in pages]
        for name, page in zip(NAMES, seats, strict=True):
            sign_in(page, live_url, f"{name}@example.com", name=name)
        for page in pages:
            page.goto(f"{live_url}/g/{game}")
            expect(page.locator("[data-connection]")).to_have_text("Live")
            expect(page.locator("[data-round]")).to_have_text("Round 1 of 2")
        for page in seats:
            expect(page.locator("[data-status-line]")).to_have_text("Your turn")
        expect(spectator.locator("[data-controls]")).to_be_hidden()

        # alice and bob bid; carol has not: nobody sees another seat's bid
        secrets = {0: "b7", 1: "b3"}
        bid(seats[0], 7)
        expect(seats[0].locator("[data-controls]")).to_be_hidden()
        bid(seats[1], 3)
        for page in pages:
            bob_cell = page.locator('[data-bids] tr[data-seat="1"] td[data-bid]')
            expect(bob_cell).not_to_have_attribute("data-bid", "")
        assert bid_cells(seats[0]) == ["b7", "?", ""]
        assert bid_cells(seats[1]) == ["?", "b3", ""]
        assert bid_cells(seats[2]) == ["?", "?", ""]
        assert bid_cells(spectator) == ["?", "?", ""]
        for page in pages:
            assert "b7" not in page.locator("[data-turns]").inner_text() or page is seats[0]
            assert "b3" not in page.locator("[data-turns]").inner_text() or page is seats[1]
        for viewer, page in ((0, seats[0]), (1, seats[1]), (2, seats[2]), (None, spectator)):
            assert frames[pages.index(page)], "no frame received"
            assert_sees_only(frames[pages.index(page)], viewer, secrets, start=0)
        for label, page in zip(("alice-1366-dark", "bob-390-light", "carol-390-dark",
                                "spectator-1366-light"), pages, strict=True):
            page.mouse.move(0, 0)
            shoot(page, f"bid-live-{label}")
            try:
                assert_accessible(page, f"Bid live page, {label}")
            except AssertionError as failure:
                failures.append(str(failure))

        # carol's bid closes the round: every page shows the reveal
        bid(seats[2], 7)
        for page in pages:
            expect(page.locator("[data-round]")).to_have_text("Round 2 of 2")
            expect(page.locator("[data-announce]")).to_contain_text("Round 1 revealed")
        # (alice and carol both bid 7, so only bob scores)
        expect(spectator.locator('[data-bids] tr[data-seat="1"] td').last).to_have_text("3")
        assert spectator.locator("[data-revealed]").evaluate_all(
            "cells => cells.map(cell => cell.dataset.revealed)") == ["b7", "b3", "b7"]

        # round 2: carol and alice bid, bob last; again hidden until the reveal
        before = [len(f) for f in frames]
        bid(seats[2], 5)
        bid(seats[0], 2)
        expect(spectator.locator('[data-bids] tr[data-seat="0"] td[data-bid]')).to_have_attribute(
            "data-bid", "?")
        round_two = {0: "b2", 2: "b5"}
        for viewer, page in ((0, seats[0]), (1, seats[1]), (2, seats[2]), (None, spectator)):
            index = pages.index(page)
            assert_sees_only(frames[index][before[index]:], viewer, round_two, start=3)
        bid(seats[1], 9)
        for page in pages:
            expect(page.locator("[data-round]")).to_have_text("Final scores")
            expect(page.locator("[data-status-line]")).to_have_text("bob (East) won.")
        for page in pages:  # the last round's bids, revealed to all
            assert page.locator("[data-revealed]").evaluate_all(
                "cells => cells.map(cell => cell.dataset.revealed)") == ["b2", "b9", "b5"]
        for label, page in zip(("alice-1366-dark", "spectator-1366-light"),
                               (seats[0], spectator), strict=True):
            shoot(page, f"bid-live-over-{label}")
        for page in pages:
            assert page.errors == [], page.errors  # type: ignore[attr-defined]
            assert page.console_errors == [], page.console_errors  # type: ignore[attr-defined]
            page.context.close()

        # the replay, drawn by the kind's replay module: a spectator's (everything, the game
        # is over) and as bob saw it (`?as=1`)
        for screen in (390, 1366):
            for theme in ("dark", "light"):
                page = new_page(opened, screen, theme)
                watched(page)
                console = page.console_errors  # type: ignore[attr-defined]
                page.goto(f"{live_url}/g/{game}/replay")
                expect(page.locator("[data-seen-as]")).to_have_text(
                    "Every bid, as the game ended.")
                expect(page.locator("[data-ply]")).to_have_text("Bid 6 of 6")
                page.get_by_role("button", name="First position").click()
                page.get_by_role("button", name="Next bid").click()
                expect(page.locator("[data-ply]")).to_have_text("Bid 1 of 6")
                assert bid_cells(page) == ["b7", "", ""]
                for name, path in (("spectator", ""), ("as-bob", "?as=1")):
                    if path:
                        page.goto(f"{live_url}/g/{game}/replay{path}")
                        expect(page.locator("[data-seen-as]")).to_have_text("As East saw it.")
                        page.get_by_role("button", name="First position").click()
                        page.get_by_role("button", name="Next bid").click()
                        assert bid_cells(page) == ["?", "", ""]  # alice's bid, hidden then
                        page.get_by_role("button", name="Next bid").click()
                        assert bid_cells(page) == ["?", "b3", ""]
                    page.mouse.move(0, 0)
                    shoot(page, f"bid-replay-{name}-{screen}-{theme}")
                    try:
                        assert_accessible(page, f"Bid replay, {name}, {theme}, {screen}")
                    except AssertionError as failure:
                        failures.append(str(failure))
                assert page.errors == [] and console == [], (page.errors, console)  # type: ignore[attr-defined]
                page.context.close()
    assert not failures, "\n\n".join(failures)
