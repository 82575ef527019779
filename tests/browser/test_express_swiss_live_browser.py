"""Issue #46's Cargo Express Swiss acceptance in a real browser: six members over two rounds
at tables of three (docs/tournaments-express-swiss.md), watched by an entrant on a phone and
a visitor on a laptop, without a reload: round 1's two tables of three seats, the places
and the points by place (1, ½, 0) as the games end, the standings after round 1, round 2
with every player moved to another seat (nobody first twice), and the final standings with
their tie breaks (opponents' average, Sonneborn–Berger) equal to the standings computed
from the stored games. The games are played through `games.services` (every seat picks its
character, then the seats leave in order) while the browsers watch. Axe clean; screenshots
express-swiss-live-* (390 and 1366 px, both themes)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games import services as games
from tests.browser.axe import assert_accessible
from tests.browser.devices import sign_in
from tests.browser.screens import assert_fits_the_width, browser, new_page, shoot
from tests.browser.test_arena_live_browser import in_thread, wait_for_socket
from tests.tournaments.test_swiss_services import finish_express
from tournaments import pages as tournament_pages
from tournaments import rounds, services
from tournaments.models import Round, Tournament

PASSWORD = "a-long-cargo-pass"
NAMES = ("ana", "ben", "cleo", "dev", "eli", "fay")


@pytest.fixture
def swiss(transactional_db):
    User = get_user_model()
    people = [User.objects.create_user(name, f"{name}@example.com", PASSWORD)
              for name in NAMES]
    # No pause between rounds: round 2 follows round 1's end at once (the pause has its
    # own tests: tests/tournaments/test_round_pause.py, test_tournament_pause_browser.py).
    t = services.create_tournament(name="Express Swiss", game_type="cargo-express",
                                   rounds=2, table_size=3, time_control="5+3", round_pause=0,
                                   starts_at=timezone.now() - dt.timedelta(minutes=1))
    for member in people:
        services.join(t, member)
    return t


def play_round(t: Tournament, number: int) -> str:
    """Every game of round `number` ends (seats leave last to first: seat 1 is 1st, seat 2
    2nd, seat 3 3rd); then the tournament moves on (if the finish seam's task has not)."""
    rnd = Round.objects.get(tournament=t, number=number)
    for table in rnd.tables.exclude(game=None):
        assert table.game_id is not None
        finish_express(games.get_game(table.game_id))
    rounds.advance(t.id)
    return Tournament.objects.get(pk=t.pk).status


def shown_standings(t: Tournament) -> list[list[str]]:
    """The standings as the page must show them: name, points and the two tie breaks."""
    return [[line.username, line.points, *line.tie_breaks]
            for line in tournament_pages.standings_of(t)]


def first_seats(page, number: int) -> list[str]:
    return page.locator(f'[data-round="{number}"] .seat-list li:first-child a').all_inner_texts()


def test_an_express_swiss_of_six_over_two_rounds_live(swiss, chromium_path, live_url):
    t = swiss
    url = f"{live_url}/tournaments/{t.id}/"
    with browser(chromium_path) as opened:
        entrant = new_page(opened, 390, "dark")
        sign_in(entrant, live_url, "ana@example.com", PASSWORD, name="ana")
        visitor = new_page(opened, 1366, "light")
        watched = {"ana": entrant, "visitor": visitor}
        for page in watched.values():
            frames: list = []
            page.on("websocket", lambda ws, frames=frames: "/ws/tournament/" in ws.url and ws.on(
                "framereceived", lambda frame: frames.append(frame)))
            page.goto(url)
            expect(page.locator(".tournament-facts")).to_contain_text("tables of 3")
            expect(page.get_by_text("6 players so far")).to_be_visible()
            wait_for_socket(page, frames)

        assert in_thread(rounds.advance, t.id) == "round 1 started"
        for page in watched.values():  # two tables of three, each seat named
            one = page.locator('[data-round="1"]')
            expect(one.get_by_role("heading", name="Round 1")).to_be_visible()
            expect(one.locator("tbody tr")).to_have_count(2)
            expect(one.locator(".seat-list li")).to_have_count(6)
            expect(one.locator(".seat-name").first).to_have_text("Seat 1")
        expect(entrant.get_by_role("link", name="Play now")).to_be_visible()
        expect(visitor.get_by_role("link", name="Play now")).to_have_count(0)

        assert in_thread(play_round, t, 1) == Tournament.Status.RUNNING
        for page in watched.values():
            one = page.locator('[data-round="1"]')
            expect(one.locator(".seat-result")).to_have_text(["1st", "2nd", "3rd"] * 2)
            expect(page.locator(".tournament-standings")).to_contain_text(
                "After 1 finished round")
            points = page.locator(".tournament-standings td.points")
            expect(points).to_have_text(["1", "1", "½", "½", "0", "0"])  # by place
            expect(page.locator('[data-round="2"] .seat-list li')).to_have_count(6)
        expect(entrant.get_by_role("link", name="Play now")).to_be_visible()
        expect(entrant.locator('tr.is-you[data-user="ana"]')).to_have_count(1)
        round_one = first_seats(visitor, 1)
        round_two = first_seats(visitor, 2)
        assert len(round_one) == len(round_two) == 2
        assert not set(round_one) & set(round_two)  # nobody starts twice: seats rotated

        assert in_thread(play_round, t, 2) == Tournament.Status.FINISHED
        expected = in_thread(shown_standings, t)
        for name, page in watched.items():
            expect(page.locator(".tournament-facts")).to_contain_text("Finished")
            expect(page.locator(".tournament-standings")).to_contain_text(
                "After 2 finished rounds")
            expect(page.get_by_role("link", name="Play now")).to_have_count(0)
            rows = page.locator(".tournament-standings tbody tr")
            expect(rows).to_have_count(6)
            for i, (who, points, oa, sb) in enumerate(expected):
                cells = rows.nth(i)
                expect(cells.locator("th a")).to_have_text(who)
                expect(cells.locator("td").nth(1)).to_have_text(points)
                expect(cells.locator("td").nth(2)).to_have_text(oa)
                expect(cells.locator("td").nth(3)).to_have_text(sb)
            width = 390 if name == "ana" else 1366
            header = ("OA", "SB") if width == 390 else ("Opponents' average",
                                                         "Sonneborn–Berger")
            for words in header:
                expect(page.locator(".tournament-standings thead").get_by_text(
                    words, exact=True)).to_be_visible()
            for theme in ("light", "dark"):
                page.emulate_media(color_scheme=theme)
                assert_fits_the_width(page)
                assert_accessible(page, f"express swiss {width} {theme}")
                shoot(page, f"express-swiss-live-{width}-{theme}")
            assert page.errors == []  # type: ignore[attr-defined]
