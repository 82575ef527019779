"""An arena's tournament page in a real browser (docs/tournaments-arena.md, "On the site"):
a running arena of four members, one of them on fire after three wins, seen by an entrant
whose game has just begun (Play now, Berserk, Pause), at 390 and 1366 px in light and dark:
no sideways scroll, axe clean; then the entrant berserks and lands on their game, whose
clock shows the halved time; and a finished arena's podium. Screenshots arena-detail-* and
arena-podium-*."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games import services as games
from games.actors import Actor
from games.models import Game
from tournaments import arenas, services
from tournaments.models import Pairing, Tournament

PASSWORD = "a-long-cargo-pass"


def _active(t: Tournament) -> list[Pairing]:
    return list(Pairing.objects.filter(tournament=t, game__status=Game.Status.ACTIVE)
                .select_related("blue__user", "orange__user").order_by("id"))


def _arena(name: str, people: list) -> Tournament:
    t = services.create_tournament(name=name, game_type="cargo-connect", rounds=0,
                                   system="arena", duration=60, time_control="5+3",
                                   options={"size": 5},
                                   starts_at=timezone.now() - dt.timedelta(minutes=1))
    for member in people:
        services.join(t, member)
    arenas.pair(t.id)
    return t


def _end_all(t: Tournament, winner) -> None:
    """Every game of the arena in progress ends: `winner` wins theirs, Blue wins the rest."""
    for p in _active(t):
        loser = p.orange.user if winner not in (p.blue.user, p.orange.user) else (
            p.orange.user if p.blue.user == winner else p.blue.user)
        games.resign(p.game_id, actor=Actor.member(loser))


def _world() -> tuple[Tournament, Tournament, str]:
    User = get_user_model()
    people = [User.objects.create_user(name, f"{name}@example.com", PASSWORD)
              for name in ("alice", "bob", "carol", "dmitri")]
    t = _arena("Hourly Arena", people)
    alice = people[0]
    clock = timezone.now()
    for _ in range(3):  # alice wins three: on fire
        _end_all(t, alice)
        clock += dt.timedelta(seconds=15)
        arenas.pair(t.id, clock)
    done = _arena("Last hour's Arena", people)
    Tournament.objects.filter(pk=done.pk).update(  # its time is up: no new game
        starts_at=timezone.now() - dt.timedelta(hours=2))
    _end_all(done, alice)
    arenas.pair(done.id)
    done.refresh_from_db()
    assert done.status == Tournament.Status.FINISHED
    return t, done, "alice"


def test_an_arena_page_on_both_screens_and_themes(chromium_path, live_url):
    from tests.browser.axe import assert_accessible
    from tests.browser.devices import sign_in
    from tests.browser.screens import assert_fits_the_width, browser, new_page, shoot

    t, done, player = _world()
    with browser(chromium_path) as opened:
        for width in (390, 1366):
            page = new_page(opened, width)
            sign_in(page, live_url, f"{player}@example.com", PASSWORD, name=player)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.goto(f"{live_url}/tournaments/{t.id}/")
                expect(page.get_by_role("heading", level=1)).to_have_text("Hourly Arena")
                expect(page.get_by_role("link", name="Play now")).to_be_visible()
                expect(page.get_by_role("button", name="Berserk")).to_be_visible()
                expect(page.get_by_role("button", name="Pause")).to_be_visible()
                expect(page.locator("tr.is-you .fire-mark")).to_be_visible()
                expect(page.locator("tr.is-you .sheet-game.is-fire")).to_have_count(1)
                expect(page.get_by_role("heading", name="Latest games")).to_be_visible()
                assert_fits_the_width(page)
                assert_accessible(page, f"arena detail {width} {scheme}")
                shoot(page, f"arena-detail-{width}-{scheme}")

                page.goto(f"{live_url}/tournaments/{done.id}/")
                expect(page.get_by_role("heading", name="Podium")).to_be_visible()
                expect(page.locator("ol.podium li")).to_have_count(3)
                assert_fits_the_width(page)
                assert_accessible(page, f"arena podium {width} {scheme}")
                shoot(page, f"arena-podium-{width}-{scheme}")

                page.goto(f"{live_url}/tournaments/{t.id}/standings/")
                expect(page.get_by_role("heading", level=1)).to_have_text(
                    "Standings of Hourly Arena")
                expect(page.locator("tr.is-you .sheet-game.is-fire")).to_have_count(1)
                assert_fits_the_width(page)
                assert_accessible(page, f"arena standings {width} {scheme}")
                shoot(page, f"arena-standings-{width}-{scheme}")
            assert page.errors == []  # type: ignore[attr-defined]
        page.goto(f"{live_url}/tournaments/{t.id}/")
        page.get_by_role("button", name="Berserk").focus()
        page.keyboard.press("Enter")  # by keyboard
        page.wait_for_url("**/g/**")
        game_id = page.url.rstrip("/").rsplit("/", 1)[-1]
        expect(page.get_by_text("2:30").first).to_be_visible()
        # Only the berserked seat's clock says it gains no increment (the control: 5+3).
        expect(page.locator(".clock .clock-note")).to_have_count(1)
        expect(page.locator(".clock[data-seat] .clock-note")).to_have_text("no increment")
        for width, scheme in ((1366, "light"), (1366, "dark"), (390, "light"), (390, "dark")):
            page.set_viewport_size({"width": width, "height": 900})
            page.emulate_media(color_scheme=scheme)
            expect(page.locator(".clock .clock-note")).to_be_visible()
            assert_fits_the_width(page)
            assert_accessible(page, f"arena berserked clock {width} {scheme}")
            shoot(page, f"arena-berserk-clock-{width}-{scheme}")
    # The database, off Playwright's event loop once the browser is closed.
    seat = 0 if Pairing.objects.get(game_id=game_id).blue.user.username == player else 1
    assert games.get_game(game_id).clock["left"][seat] == 150_000
