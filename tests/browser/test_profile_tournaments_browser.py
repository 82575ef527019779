"""A member's tournament results on their profile in a real browser (docs/profiles.md,
"Tournaments"): after winning a Cargo Connect Swiss and finishing second in another, the
profile lists both with their places, the totals, and the Champion, Podium finish and On
the circuit achievements earned; at 390 and 1366 px in light and dark: no sideways scroll,
axe clean. Screenshots profile-tournaments-* (the section)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games import services as games
from games.actors import Actor
from tests.browser.axe import assert_accessible
from tests.browser.screens import assert_fits_the_width, browser, new_page, shoot
from tests.games.bot_support import eager
from tournaments import rounds, services
from tournaments.models import Sitting

__all__ = ["eager"]
PASSWORD = "a-long-cargo-pass"


def one_round_swiss(name: str, people, winner) -> None:
    t = services.create_tournament(name=name, game_type="cargo-connect", rounds=1,
                                   options={"size": 5},
                                   starts_at=timezone.now() - dt.timedelta(minutes=1))
    for member in people:
        services.join(t, member)
    rounds.advance(t.id)
    for game_id in set(Sitting.objects.filter(round__tournament=t)
                       .values_list("table__game_id", flat=True)):
        seats = list(Sitting.objects.filter(table__game_id=game_id).select_related("entry__user"))
        loser = next((s.entry.user for s in seats if s.entry.user != winner),
                     seats[1].entry.user)
        games.resign(game_id, actor=Actor.member(loser))


@pytest.fixture
def results(live_url, eager):
    User = get_user_model()
    kofi, bob = (User.objects.create_user(n, f"{n}@example.com", PASSWORD)
                 for n in ("kofi", "bob"))
    one_round_swiss("Monday Swiss", [kofi, bob], kofi)  # committed as it goes: no atomic
    one_round_swiss("Tuesday Swiss", [kofi, bob], bob)
    return "kofi"


def test_a_profile_lists_tournament_results(results, chromium_path, live_url):
    with browser(chromium_path) as opened:
        for width in (390, 1366):
            page = new_page(opened, width)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.goto(f"{live_url}/@/{results}")
                section = page.locator("section.profile-tournaments")
                expect(section.get_by_role("heading", name="Tournaments")).to_be_visible()
                expect(section.locator("tbody tr")).to_have_count(2)
                expect(section.locator("tbody tr").first).to_contain_text("Tuesday Swiss")
                expect(section.locator("td.place")).to_have_text(["2nd of 2", "1st of 2"])
                expect(section.locator(".tournaments-won")).to_have_text("1")
                expect(section.locator(".tournaments-played")).to_have_text("2")
                for key in ("first_tournament", "tournament_podium", "tournament_win"):
                    expect(page.locator(f'li.is-earned[data-key="{key}"]')).to_have_count(1)
                assert_fits_the_width(page)
                assert_accessible(page, f"profile tournaments {width} {scheme}")
                shoot(section, f"profile-tournaments-{width}-{scheme}")
            assert page.errors == []  # type: ignore[attr-defined]
