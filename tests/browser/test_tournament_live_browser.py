"""A tournament's page updating live in a real browser (docs/tournaments.md, "Live"): an
entrant watches round 1; their game ends (their "Play now" goes, the result shows), the
other board ends (the standings after round 1, round 2 paired, their new "Play now"), all
without a reload; their standings row is marked as theirs after each swap; then the list,
where tournaments made meanwhile appear in Upcoming in start order; axe clean."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games import services as games
from games.actors import Actor
from tests.browser.axe import assert_accessible
from tests.browser.dbwork import in_thread
from tests.browser.devices import sign_in
from tests.browser.screens import browser, new_page
from tests.games.bot_support import eager
from tournaments import services
from tournaments.models import Sitting, Tournament

__all__ = ["eager"]

PASSWORD = "a-long-cargo-pass"


@pytest.fixture
def running(transactional_db, eager):  # noqa: F811
    """Round 1 of a Swiss of four under way; the round's end is moved on by the task the
    finish seam sends (`tournaments.advance`), run in-process as the embedded default
    runs it, whatever REDIS_URL says (no worker hears the tests' broker)."""
    User = get_user_model()
    people = [User.objects.create_user(name, f"{name}@example.com", PASSWORD)
              for name in ("alice", "bob", "carol", "dmitri")]
    # No pause between rounds: this follows round 2's start from round 1's end (the
    # pause's own browser test: test_tournament_pause_browser.py).
    t = services.create_tournament(name="Live Swiss", game_type="cargo-connect", rounds=2,
                                   options={"size": 5}, round_pause=0,
                                   starts_at=timezone.now() - dt.timedelta(minutes=1))
    for member in people:
        services.join(t, member)
    services.tick()
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    return t


def end_game_of(t, username, winner_seat):
    """The game `username` plays in round 1 ends: the other seat than `winner_seat`
    resigns."""
    game_id = Sitting.objects.get(round__tournament=t, round__number=1,
                                  entry__user__username=username).table.game_id
    loser = Sitting.objects.get(table__game_id=game_id, seat=1 - winner_seat).entry.user
    games.resign(game_id, actor=Actor.member(loser))
    return game_id


def announce(name, hours):
    return services.create_tournament(name=name, game_type="cargo-connect", rounds=3,
                                      options={"size": 5},
                                      starts_at=timezone.now() + dt.timedelta(hours=hours))


def other_board(t, username):
    mine = Sitting.objects.get(round__tournament=t, round__number=1,
                               entry__user__username=username).table_id
    return (Sitting.objects.filter(round__tournament=t, round__number=1, table__game__isnull=False)
            .exclude(table_id=mine).first().entry.user.username)


def test_the_page_follows_the_round_without_a_reload(running, chromium_path, live_url):
    t = running
    with browser(chromium_path) as opened:
        page = new_page(opened, 390, "dark")
        sign_in(page, live_url, "alice@example.com", PASSWORD, name="alice")
        frames: list = []
        page.on("websocket", lambda ws: "/ws/tournament/" in ws.url and ws.on(
            "framereceived", lambda frame: frames.append(frame)))
        page.goto(f"{live_url}/tournaments/{t.id}/")
        expect(page.get_by_role("link", name="Play now")).to_be_visible()
        for _ in range(150):  # the socket's first `sections`: it has joined its groups
            if frames:
                break
            page.wait_for_timeout(100)
        assert frames, "the tournament socket sent nothing in 15 s"
        expect(page.get_by_text("reload it")).to_have_count(0)

        in_thread(end_game_of, t, "alice", 0)
        expect(page.get_by_role("link", name="Play now")).to_have_count(0)
        expect(page.locator("table.pairings")).to_contain_text("1–0")

        other = in_thread(other_board, t, "alice")
        in_thread(end_game_of, t, other, 0)
        expect(page.get_by_role("heading", level=3, name="Round 2")).to_be_visible()
        expect(page.locator(".tournament-standings")).to_contain_text("After 1 finished round")
        expect(page.get_by_role("link", name="Play now")).to_be_visible()
        expect(page.locator('tr.is-you[data-user="alice"]')).to_have_count(1)
        expect(page.locator('[data-round="2"] .game-verb', has_text="Play")).to_have_count(1)
        assert_accessible(page, "tournament page after live updates")

        # The list: a tournament made meanwhile appears in Upcoming, in its order.
        list_frames: list = []
        page.on("websocket", lambda ws: "/ws/tournaments/" in ws.url and ws.on(
            "framereceived", lambda frame: list_frames.append(frame)))
        page.goto(f"{live_url}/tournaments/")
        upcoming = page.locator('[data-group="upcoming"]')
        expect(upcoming.get_by_text("No upcoming tournaments.")).to_be_visible()
        for _ in range(150):
            if list_frames:
                break
            page.wait_for_timeout(100)
        assert list_frames, "the list socket sent nothing in 15 s"
        in_thread(announce, "Later Swiss", 3)
        in_thread(announce, "Sooner Swiss", 2)
        expect(upcoming.get_by_role("link", name="Later Swiss")).to_be_visible()
        expect(upcoming.get_by_text("No upcoming tournaments.")).to_be_hidden()
        expect(upcoming.locator("tbody tr th a")).to_have_text(["Sooner Swiss", "Later Swiss"])
        assert_accessible(page, "tournament list after a live row")
        assert page.errors == []  # type: ignore[attr-defined]
