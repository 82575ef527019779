"""The tournament pages in a real browser (docs/tournaments.md, "Pages"): the list (with
tournaments in each group and the create form) and a tournament whose round 1 is being
played, seen by an entrant with "Play now", at 390 and 1366 px in light and dark: no
sideways scroll, axe clean; screenshots tournaments-index-* and tournaments-detail-*."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from tournaments import services
from tournaments.models import Tournament

PASSWORD = "a-long-cargo-pass"


def _world() -> Tournament:
    User = get_user_model()
    people = [User.objects.create_user(name, f"{name}@example.com", PASSWORD)
              for name in ("alice", "bob", "carol", "dmitri", "eve")]
    services.create_tournament(name="Sunday Express", game_type="cargo-express", rounds=4,
                               starts_at=timezone.now() + dt.timedelta(days=2),
                               time_control="3d", password="secret")
    done = services.create_tournament(name="Last week's Swiss", game_type="cargo-connect",
                                      rounds=3, starts_at=timezone.now() - dt.timedelta(days=7),
                                      options={"size": 5})
    Tournament.objects.filter(pk=done.pk).update(status=Tournament.Status.FINISHED)
    t = services.create_tournament(name="Blitz Arena Swiss", game_type="cargo-connect",
                                   rounds=5, time_control="5+3", options={"size": 5},
                                   starts_at=timezone.now() - dt.timedelta(minutes=1))
    for member in people:
        services.join(t, member)
    services.tick()
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    return t


def test_the_tournament_pages_on_both_screens_and_themes(chromium_path, live_url):
    from tests.browser.axe import assert_accessible
    from tests.browser.devices import sign_in
    from tests.browser.screens import assert_fits_the_width, browser, new_page, shoot

    t = _world()
    player = t.entries.filter(sittings__table__game__isnull=False).first().user.username
    with browser(chromium_path) as opened:
        for width in (390, 1366):
            page = new_page(opened, width)
            sign_in(page, live_url, f"{player}@example.com", PASSWORD, name=player)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.goto(live_url + "/tournaments/")
                expect(page.get_by_role("heading", level=1)).to_have_text("Tournaments")
                for group in ("Upcoming", "Running", "Finished"):
                    expect(page.get_by_role("heading", level=2, name=group)).to_be_visible()
                expect(page.get_by_role("link", name="Blitz Arena Swiss")).to_be_visible()
                expect(page.get_by_role("textbox", name="Name")).to_be_visible()
                expect(page.get_by_label("Starts at (your time)")).to_be_visible()
                assert_fits_the_width(page)
                assert_accessible(page, f"tournaments index {width} {scheme}")
                shoot(page, f"tournaments-index-{width}-{scheme}")

                page.get_by_role("link", name="Blitz Arena Swiss").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Blitz Arena Swiss")
                expect(page.get_by_role("link", name="Play now")).to_be_visible()
                expect(page.get_by_role("heading", name="Standings")).to_be_visible()
                expect(page.get_by_role("heading", level=3, name="Round 1")).to_be_visible()
                expect(page.locator("table.pairings tbody tr")).to_have_count(2)
                expect(page.locator(".byes")).to_contain_text("Bye:")
                assert_fits_the_width(page)
                assert_accessible(page, f"tournament detail {width} {scheme}")
                shoot(page, f"tournaments-detail-{width}-{scheme}")
            assert page.errors == []  # type: ignore[attr-defined]
