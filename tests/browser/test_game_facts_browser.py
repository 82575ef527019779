"""Issue #27's "wrong or misleading facts", in Chromium at 390×844 and 1366×900, both
themes, with screenshots kept (artifacts/screenshots/, `facts-*`):

1. two members in a live timed game, both connected and moving: neither page says "Your
   opponent left" (the warm copy's stale presence);
2. a finished rated game shows the ratings before it and its change (1200 +20), not the
   ratings of today after later games;
3. a loss on time is worded as one (never "resigned") in the status line, the turn list and
   the Final Audit;
4. against CargoBot, "Abort the game" goes once CargoBot has moved;
6. each clock is on its player's bar beside the board: on a phone the opponent's right above
   the bay and the player's own right under it, all on screen together;
7. the Review button answers at once and the page shows the progress;
12. a Daily Challenge game's header says what it is.
"""

from __future__ import annotations

import functools

import pytest
from playwright.sync_api import expect

from games import services
from games.actors import Actor
from games.timing import timeouts
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.clocks.support import ORANGE, pass_time, start, timed_game
from tests.games.bot_support import eager  # noqa: F401  (fixture)
from tests.games.support import member, new_bot_game, new_game


@pytest.fixture(autouse=True)
def empty_watcher():
    """The process's flag watcher forgets these games once the test is over (its thread
    would look for them after the test database is gone)."""
    yield
    timeouts.watcher.clear()


@pytest.fixture
def people(django_user_model):
    return {name: django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
            for name in ("alice", "bob", "carol")}


def turn(page) -> None:
    """This page's player makes the first legal drop, through the page's own socket."""
    page.evaluate("""() => {
        const s = window.liveGame.state;
        const drop = s.legal.find((t) => t.length === 1) || s.legal[0];
        window.liveGame.socket.sendTurn(s.ply, drop);
    }""")


@pytest.fixture
def live_game(people):
    return timed_game(people["alice"], people["bob"], "5+3", size=6)


def test_two_members_moving_in_a_timed_game_are_both_here(live_game, chromium_path,
                                                          live_url):
    with browser(chromium_path) as opened:
        alice = new_page(opened, 390, "dark")
        bob = new_page(opened, 1366, "light")
        sign_in(alice, live_url, "alice@example.com", name="alice")
        sign_in(bob, live_url, "bob@example.com", name="bob")
        alice.goto(f"{live_url}/g/{live_game.id}")  # alice's page first warms the game
        expect(alice.locator("[data-connection]")).to_have_text("Live")
        bob.goto(f"{live_url}/g/{live_game.id}")
        expect(bob.locator("[data-connection]")).to_have_text("Live")
        for ply, mover in enumerate((alice, bob, alice, bob, alice)):
            turn(mover)
            for page in (alice, bob):
                expect(page.locator(".turn-list .tok")).to_have_count(ply + 1)
        for page in (alice, bob):
            expect(page.locator("[data-abandon]")).to_be_hidden()
            expect(page.get_by_text("Your opponent left")).to_have_count(0)
        # Item 6: on the phone, the opponent's clock right above the bay, hers right under.
        bay = alice.locator("[data-bay]").bounding_box()
        mine = alice.locator(".player.is-bottom .clock").bounding_box()
        theirs = alice.locator(".player.is-top .clock").bounding_box()
        assert bay and mine and theirs
        assert theirs["y"] + theirs["height"] <= bay["y"] + 2
        assert bay["y"] + bay["height"] <= mine["y"] + 2
        assert mine["y"] - (bay["y"] + bay["height"]) < 40  # beside the board
        controls = alice.locator("[data-controls]").bounding_box()
        assert controls is None or mine["y"] + mine["height"] <= controls["y"] + 1
        assert mine["y"] + mine["height"] <= 844 and theirs["y"] >= 0  # all on one screen
        shoot(alice, "facts-live-timed-390-dark", full_page=False)
        shoot(bob, "facts-live-timed-1366-light", full_page=False)
        assert alice.errors == [] and bob.errors == []


@pytest.fixture
def later_ratings(people):
    """A rated game alice won by resignation (1200 +20 / 1200 −20), then two more games."""
    first = new_game(people["alice"], people["bob"], size=5)
    services.resign(first.id, actor=member(people["bob"]))
    for _ in range(2):
        later = new_game(people["alice"], people["bob"], size=5)
        services.resign(later.id, actor=member(people["bob"]))
    return first


def test_a_finished_game_shows_the_ratings_before_it(later_ratings, chromium_path, live_url):
    with browser(chromium_path) as opened:
        for screen, scheme in ((1366, "dark"), (390, "light")):
            page = new_page(opened, screen, scheme)
            page.goto(f"{live_url}/g/{later_ratings.id}")
            row = page.locator("[data-audit] .rating-row")
            expect(row.locator("td[data-side=blue]")).to_have_text("1200 +20")
            expect(row.locator("td[data-side=orange]")).to_have_text("1200 −20")
            expect(page.locator(".player.blue .player-name")).to_contain_text("Elo 1200")
            shoot(page, f"facts-ratings-{screen}-{scheme}")
            page.goto(f"{live_url}/g/{later_ratings.id}/replay")
            expect(page.locator("[data-audit] .rating-row td[data-side=blue]")).to_have_text(
                "1200 +20")
            assert page.errors == []


@pytest.fixture
def lost_on_time(people):
    game = start(timed_game(people["alice"], people["bob"], "3+2", size=5), people)
    services.apply_turn(game.id, actor=member(people["alice"]), ply=game.ply,
                        token=services.state_of(game)["legal"][0])
    pass_time(game.id, 200)
    assert timeouts.flag(game.id) == ORANGE
    return game


def test_a_loss_on_time_is_called_one(lost_on_time, chromium_path, live_url):
    with browser(chromium_path) as opened:
        for screen, scheme in ((390, "dark"), (1366, "light")):
            page = new_page(opened, screen, scheme)
            page.goto(f"{live_url}/g/{lost_on_time.id}")
            expect(page.locator("[data-status-line]")).to_have_text(
                "Orange (bob) ran out of time: Blue (alice) wins")
            audit = page.locator("[data-audit]")
            expect(audit.locator(".verdict")).to_have_text(
                "alice (Blue) wins — Orange ran out of time")
            expect(audit).to_contain_text(
                "Scores as if the Final Audit ran when Orange's time ran out.")
            expect(audit).not_to_contain_text("resign")
            expect(page.locator(".turn-list .result-line")).to_have_text(
                "1-0 · Orange ran out of time")
            shoot(page, f"facts-on-time-{screen}-{scheme}")
            assert page.errors == []


@pytest.fixture
def bot_game(people, eager):  # noqa: F811  (CargoBot's task in-process, whatever REDIS_URL says)
    return new_bot_game(people["alice"], color="blue", size=5)


def test_abort_goes_once_cargobot_has_moved(bot_game, chromium_path, live_url):
    with browser(chromium_path) as opened:
        page = new_page(opened, 390, "light")
        sign_in(page, live_url)
        page.goto(f"{live_url}/g/{bot_game.id}")
        expect(page.get_by_role("button", name="Abort the game")).to_be_visible()
        turn(page)
        expect(page.locator(".turn-list .tok")).to_have_count(2)  # CargoBot answered
        expect(page.get_by_role("button", name="Abort the game")).to_have_count(0)
        expect(page.locator("[data-abandon]")).to_be_hidden()
        shoot(page, "facts-cargobot-no-abort-390-light")
        assert page.errors == []


@pytest.fixture
def to_review(people, monkeypatch, eager):  # noqa: F811  (the review on a thread, as embedded)
    from engine import review as engine_review
    from games.kinds import cargo_connect
    from tests.games.support import scripted_tokens
    from tests.review.support import play_out

    monkeypatch.setattr(cargo_connect, "review_game",
                        functools.partial(engine_review.review_game, depth=3, budget=2000))
    game = new_game(people["alice"], people["bob"], size=5)
    return play_out(game, scripted_tokens(5), people["alice"], people["bob"])


def test_the_review_shows_progress_at_once(to_review, chromium_path, live_url):
    from games.records import review

    with browser(chromium_path) as opened:
        page = new_page(opened, 390, "dark")
        page.goto(f"{live_url}/g/{to_review.id}/review")
        page.locator("[data-start-review]").click()
        # The button's request returns while the review runs: the progress, then the review.
        expect(page.locator(".review-graph polyline, [data-review-progress]").first
               ).to_be_visible(timeout=3000)
        shoot(page, "facts-review-progress-390-dark", full_page=False)
        review.wait_for_background(to_review.id)
        expect(page.locator(".review-graph polyline")).to_have_count(1, timeout=15_000)
        assert page.errors == []


@pytest.fixture
def daily_game(people):
    from puzzles.daily import services as daily

    return daily.start(Actor.member(people["alice"]), "easy")


def test_a_daily_challenge_game_says_what_it_is(daily_game, chromium_path, live_url):
    with browser(chromium_path) as opened:
        for screen, scheme in ((390, "light"), (1366, "dark")):
            page = new_page(opened, screen, scheme)
            sign_in(page, live_url)
            page.goto(f"{live_url}/g/{daily_game.id}")
            expect(page.locator("h1")).to_contain_text("Daily Challenge, ")
            facts = page.locator("[data-game-facts]")
            expect(facts).to_contain_text("Easy")
            expect(facts).to_contain_text("Ranked")
            expect(page.locator(".player.is-bottom .player-name")).not_to_contain_text("Elo")
            shoot(page, f"facts-daily-{screen}-{scheme}", full_page=False)
            assert page.errors == []
