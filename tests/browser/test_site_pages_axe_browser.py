"""axe-core on the site's pages in both themes, at 390×844 and 1366×900: home and the
lobby signed out and in (the member's own seek waiting and another's), a challenge's page,
a profile and its games, How to play, sign-in, sign-up, a 404 and "no such game", the
rankings, the Weekly Puzzles (week and day) and the Daily Challenge (today and archive). A
theme comes from the system (`emulate_media`) or from the header's switch (which
overrides the system's opposite). Each page is also kept as a screenshot
(tests/browser/screens.py). 0 violations of any impact."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from games import services
from puzzles import schedule
from puzzles.models import Week
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.games.support import new_game
from tests.puzzles.conftest import MONDAY, make_puzzle, record

SIGNED_OUT = [("home-signed-out", "/"), ("sign-in", "/accounts/login/"),
              ("sign-up", "/accounts/signup/"), ("404", "/no-such-page/"),
              ("how-to-play", "/how-to-play"), ("lobby-signed-out", "/play/")]
SIGNED_IN = [("home", "/"), ("lobby", "/play/"), ("challenge", "/challenge/{challenge}"),
             ("profile", "/@/marta"), ("profile-games", "/@/marta/games"),
             ("rankings", "/rankings/"), ("puzzles", "/puzzles/"),
             ("puzzle", f"/puzzles/{MONDAY.isoformat()}/"), ("daily", "/puzzles/daily/"),
             ("daily-archive", "/puzzles/daily/archive/"),
             ("no-such-game", "/g/AAAAAAAAAA")]
# (system scheme, whether the switch is pressed once, the theme that results)
MODES = [("dark", False, "dark"), ("light", False, "light"),
         ("dark", True, "light"), ("light", True, "dark")]


@pytest.fixture
def site(django_user_model, monkeypatch):
    monkeypatch.setattr(schedule, "today", lambda: MONDAY + dt.timedelta(days=1))
    week = Week.objects.create(monday=MONDAY, status=Week.Status.PUBLISHED)
    make_puzzle(record(), week, 0, prove=False)
    users = {name: django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in ("marta", "kofi")}
    new_game(users["marta"], users["kofi"])  # in progress, marta to move
    services.create_challenge(users["kofi"], options={"size": 7}, color="blue")
    services.create_challenge(users["marta"], options={"size": 6})
    link = services.create_challenge(users["marta"], options={"size": 5}, public=False)
    return {"challenge": link.id}


@pytest.mark.parametrize("screen", [390, 1366])
@pytest.mark.parametrize("scheme, switched, theme", MODES)
def test_every_page_has_no_axe_violations(site, chromium_path, live_url, screen, scheme,
                                          switched, theme):
    with browser(chromium_path) as opened:
        page = new_page(opened, screen, color_scheme=scheme)
        page.emulate_media(color_scheme=scheme)
        page.goto(live_url + "/")
        if switched:
            page.locator("[data-theme-switch]").click()
        expect(page.locator("html")).to_have_attribute("data-theme", theme) if switched \
            else expect(page.locator("html")).not_to_have_attribute("data-theme", theme)
        how = "switch" if switched else "system"
        failures = []

        def check(name: str) -> None:
            expect(page.locator("main")).to_be_visible()
            try:
                assert_accessible(page, f"{name}, {theme} by {how}, {screen}")
            except AssertionError as failure:  # every page is checked; all are reported
                failures.append(str(failure))
            shoot(page, f"{name}-{screen}-{theme}-{how}")

        for name, path in SIGNED_OUT:
            page.goto(live_url + path)
            check(name)
        sign_in(page, live_url, "marta@example.com", name="marta")
        for name, path in SIGNED_IN:
            page.goto(live_url + path.format(**site))
            check(name)
        assert not failures, "\n\n".join(failures)
        assert page.errors == []
