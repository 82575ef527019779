"""Issue #46's arena acceptance in a real browser: four members in four browser contexts
(two phones, two laptops, light and dark) watch one arena's page
(docs/tournaments-arena.md, "Live"). Without a reload: the pairing ("Play now" appears for
each in their own part, their own game marked "Play"), a berserk taken with the button
that arrived live (its form given the page's CSRF token) landing on the game with its
halved clock, streak points (alice's berserk win of 3, then 2, then 4 on fire, the fire
tag on her row on every page), the standings moving as games end, and the end with the
podium. The games are played through `games.services` while the browsers watch. Axe clean
on every page; screenshots arena-live-* (390 and 1366 px, both themes)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games import services as games
from games.actors import Actor
from games.models import Game
from tests.browser.axe import assert_accessible
from tests.browser.dbwork import in_thread
from tests.browser.devices import sign_in
from tests.browser.screens import assert_fits_the_width, browser, new_page, shoot
from tests.games.bot_support import eager
from tests.tournaments.test_arena_site import play_plies
from tournaments import arenas, services
from tournaments.models import Pairing, Tournament

__all__ = ["eager"]

PASSWORD = "a-long-cargo-pass"
NAMES = ("alice", "bob", "carol", "dmitri")
SCREENS = {"alice": (1366, "light"), "bob": (390, "dark"), "carol": (1366, "dark"),
           "dmitri": (390, "light")}


@pytest.fixture
def arena(transactional_db):
    User = get_user_model()
    people = [User.objects.create_user(name, f"{name}@example.com", PASSWORD)
              for name in NAMES]
    t = services.create_tournament(name="Live Arena", game_type="cargo-connect", rounds=0,
                                   system="arena", duration=60, time_control="5+3",
                                   options={"size": 5},
                                   starts_at=timezone.now() - dt.timedelta(minutes=1))
    for member in people:
        services.join(t, member)
    return t


def active(t: Tournament) -> list[Pairing]:
    return list(Pairing.objects.filter(tournament=t, game__status=Game.Status.ACTIVE)
                .select_related("blue__user", "orange__user").order_by("id"))


def play_a_round(t: Tournament, long_game: bool = False) -> None:
    """Every game in progress ends: alice wins hers (after 16 plies when `long_game`, so a
    berserk counts), Blue wins the others; then a pass pairs the four again (if the
    finish seam's own pass has not)."""
    for p in active(t):
        names = (p.blue.user.username, p.orange.user.username)
        if "alice" in names:
            if long_game:
                play_plies(p, 16)
            loser = p.orange.user if names[0] == "alice" else p.blue.user
        else:
            loser = p.orange.user
        games.resign(p.game_id, actor=Actor.member(loser))
    arenas.pair(t.id, timezone.now() + dt.timedelta(seconds=15))


def the_end(t: Tournament) -> str:
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - dt.timedelta(hours=2))
    for p in active(t):
        games.resign(p.game_id, actor=Actor.member(p.orange.user))
    arenas.pair(t.id)
    return Tournament.objects.get(pk=t.pk).status


def wait_for_socket(page, frames: list) -> None:
    for _ in range(150):  # the socket's first `sections`: it has joined its groups
        if frames:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the tournament socket sent nothing in 15 s")


def shoot_both_themes(page, name: str, width: int, scheme: str) -> None:
    for theme in (scheme, "dark" if scheme == "light" else "light"):
        page.emulate_media(color_scheme=theme)
        assert_fits_the_width(page)
        assert_accessible(page, f"{name} {width} {theme}")
        shoot(page, f"{name}-{width}-{theme}")
    page.emulate_media(color_scheme=scheme)


def test_four_players_follow_an_arena_live(arena, chromium_path, live_url, eager):
    # `eager`: the site's tasks run here (with REDIS_URL set they would go to a broker no
    # worker hears: the shared section's coalesced render and the passes).
    t = arena
    url = f"{live_url}/tournaments/{t.id}/"
    with browser(chromium_path) as opened:
        pages = {}
        for name in NAMES:
            width, scheme = SCREENS[name]
            page = new_page(opened, width, scheme)
            sign_in(page, live_url, f"{name}@example.com", PASSWORD, name=name)
            frames: list = []
            page.on("websocket", lambda ws, frames=frames: "/ws/tournament/" in ws.url and ws.on(
                "framereceived", lambda frame: frames.append(frame)))
            page.goto(url)
            expect(page.get_by_text("The arena starts at its time")).to_be_visible()
            wait_for_socket(page, frames)
            pages[name] = page

        # The pass pairs the four: each sees their own "Play now", without a reload.
        in_thread(arenas.pair, t.id)
        games_of = {p.blue.user.username: p.game_id for p in in_thread(active, t)}
        games_of.update({p.orange.user.username: p.game_id for p in in_thread(active, t)})
        for name, page in pages.items():
            play = page.get_by_role("link", name="Play now")
            expect(play).to_be_visible()
            expect(play).to_have_attribute("href", f"/g/{games_of[name]}")
            expect(page.locator(".arena-games tbody tr")).to_have_count(2)
            own = page.locator(f'.arena-games a[data-game="{games_of[name]}"] .game-verb')
            expect(own).to_have_text("Play")
            expect(page.locator(f'tr.is-you[data-user="{name}"]')).to_have_count(1)
            expect(page.get_by_role("button", name="Berserk")).to_be_visible()
            # The start's facts came over the socket with the arena's time left, counting.
            expect(page.locator("[data-time-left] [role=timer]")).to_have_text(
                re.compile(r"^5\d:\d\d$"))  # began a minute ago

        # alice berserks with the button that came over the socket: to her game, 2:30.
        alice = pages["alice"]
        alice.get_by_role("button", name="Berserk").click()
        alice.wait_for_url(f"**/g/{games_of['alice']}")
        expect(alice.get_by_text("2:30").first).to_be_visible()
        alice.goto(url)
        expect(alice.get_by_role("button", name="Berserk")).to_have_count(0)
        expect(pages["bob"].locator(".arena-games .tag", has_text="berserk")).to_have_count(1)

        # Three rounds: alice wins each (the first a long berserk game: 2 + 1).
        in_thread(play_a_round, t, True)
        for page in pages.values():
            expect(page.locator('tr[data-user="alice"] td.points')).to_have_text("3")
            expect(page.locator('tr[data-user="alice"] .sheet-game.is-berserk')).to_have_count(1)
        in_thread(play_a_round, t)
        for page in pages.values():  # two wins in a row: on fire
            expect(page.locator('tr[data-user="alice"] .fire-mark')).to_be_visible()
            expect(page.locator('tr[data-user="alice"] td.points')).to_have_text("5")
        in_thread(play_a_round, t)
        for name, page in pages.items():  # the third win doubled: 4
            row = page.locator('tr[data-user="alice"]')
            expect(row.locator("td.points")).to_have_text("9")
            expect(row.locator(".sheet-game.is-fire")).to_have_count(1)
            expect(row.locator("td.rank")).to_have_text("1")
            expect(page.get_by_role("link", name="Play now")).to_be_visible()
            expect(page.locator(f'tr.is-you[data-user="{name}"]')).to_have_count(1)
        for name, page in pages.items():
            width, scheme = SCREENS[name]
            if name in ("alice", "bob"):  # one phone, one laptop: both themes each
                shoot_both_themes(page, "arena-live", width, scheme)
            else:
                assert_accessible(page, f"arena live {name}")

        # The time is up, the last games end: the podium on every page, alice first.
        assert in_thread(the_end, t) == Tournament.Status.FINISHED
        for page in pages.values():
            expect(page.get_by_role("heading", name="Podium")).to_be_visible()
            expect(page.locator("ol.podium li")).to_have_count(3)
            expect(page.locator("ol.podium li").first).to_contain_text("alice")
            expect(page.locator(".tournament-facts")).to_contain_text("Finished")
            expect(page.get_by_role("link", name="Play now")).to_have_count(0)
            expect(page.get_by_role("button", name="Pause")).to_have_count(0)
        for name, page in pages.items():
            width, scheme = SCREENS[name]
            if name in ("carol", "dmitri"):
                shoot_both_themes(page, "arena-live-podium", width, scheme)
            else:
                assert_accessible(page, f"arena podium {name}")
            assert page.errors == []  # type: ignore[attr-defined]
