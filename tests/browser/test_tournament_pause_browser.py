"""A Swiss's pause between rounds in a real browser (docs/tournaments.md, "The pause
between rounds"): an entrant's page when round 1 ends shows, without a reload, the
standings after the round, the countdown to round 2 (counted in the browser from the
server's time) and their own place in "Your entry"; when round 2 starts (the admin's
"start now" here, the tick when due) the countdown goes and "Your entry" names their new
pairing. 390 and 1366 px, light and dark, axe clean, no sideways scroll; screenshots
tournament-pause-*."""

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games import services as games
from games.actors import Actor
from tests.browser.axe import assert_accessible
from tests.browser.dbwork import in_thread
from tests.browser.devices import sign_in
from tests.browser.screens import assert_fits_the_width, browser, new_page, shoot
from tests.games.bot_support import eager
from tournaments import services
from tournaments.models import Sitting, Tournament

__all__ = ["eager"]

PASSWORD = "a-long-cargo-pass"


@pytest.fixture
def running(transactional_db, eager):  # noqa: F811
    """Round 1 of a Swiss of four with a pause of five minutes (no tick of the test's
    comes that late: round 2 starts only by the admin's "start now")."""
    User = get_user_model()
    people = [User.objects.create_user(name, f"{name}@example.com", PASSWORD)
              for name in ("alice", "bob", "carol", "dmitri")]
    t = services.create_tournament(name="Paused Swiss", game_type="cargo-connect", rounds=2,
                                   options={"size": 5}, round_pause=300,
                                   starts_at=timezone.now() - dt.timedelta(minutes=1))
    for member in people:
        services.join(t, member)
    services.tick()
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    return t


def end_round_one(t):
    """Every game of round 1 ends: Blue wins."""
    for sitting in Sitting.objects.filter(round__tournament=t, round__number=1, seat=1,
                                          table__game__isnull=False).select_related(
            "entry__user", "table"):
        games.resign(sitting.table.game_id, actor=Actor.member(sitting.entry.user))


def test_the_pause_between_rounds_on_an_entrants_page(running, chromium_path, live_url):
    t = running
    with browser(chromium_path) as opened:
        pages = {}
        for width, scheme in ((390, "dark"), (1366, "light")):
            page = new_page(opened, width, scheme)
            sign_in(page, live_url, "alice@example.com", PASSWORD, name="alice")
            frames: list = []
            page.on("websocket", lambda ws, got=frames: "/ws/tournament/" in ws.url and ws.on(
                "framereceived", lambda frame: got.append(frame)))
            page.goto(f"{live_url}/tournaments/{t.id}/")
            expect(page.get_by_role("link", name="Play now")).to_be_visible()
            for _ in range(150):  # the socket's first `sections`: it has joined its groups
                if frames:
                    break
                page.wait_for_timeout(100)
            assert frames, "the tournament socket sent nothing in 15 s"
            pages[width] = page

        in_thread(end_round_one, t)
        for width, page in pages.items():
            countdown = page.locator("[data-next-round]")
            expect(countdown).to_contain_text("Round 2 starts in")
            expect(page.locator(".next-round-time")).to_have_text(re.compile(r"^[45]:\d\d$"))
            expect(page.locator(".tournament-standings")).to_contain_text(
                "After 1 finished round")
            expect(page.locator("[data-entry-place]")).to_contain_text("of 4")
            expect(page.locator("[data-entry-pairing]")).to_contain_text("Round 1, board")
            expect(page.get_by_role("link", name="Play now")).to_have_count(0)
            expect(page.get_by_role("heading", level=3, name="Round 2")).to_have_count(0)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                assert_fits_the_width(page)
                assert_accessible(page, f"tournament pause {width} {scheme}")
                shoot(page, f"tournament-pause-{width}-{scheme}")

        assert in_thread(lambda: services.start_now(Tournament.objects.get(pk=t.pk))) is True
        for page in pages.values():
            expect(page.get_by_role("heading", level=3, name="Round 2")).to_be_visible()
            expect(page.locator("[data-next-round]")).to_have_count(0)
            expect(page.locator("[data-entry-pairing]")).to_contain_text("Round 2, board")
            expect(page.get_by_role("link", name="Play now")).to_be_visible()
            assert_accessible(page, "tournament round 2 after the pause")
            assert page.errors == []  # type: ignore[attr-defined]
