"""axe-core on the site's pages in both themes, at 390×844 and 1366×900: home and the
lobby signed out and in (the member's own seek waiting and another's), a challenge's page,
a profile and its games, How to play, sign-in, sign-up, a 404 and "no such game", the
rankings, the Weekly Puzzles (week and day) and the Daily Challenge (today and archive).
0 violations of any impact; each page is also kept as a screenshot (tests/browser/screens.py).

A theme comes from the system (`emulate_media`) or from the header's switch, which
overrides the system's opposite. axe runs on the pages of the system's theme; with the
switch pressed on the opposite system, every page must compute the same colours, element by
element, as the system's theme gave it (`colours`): what axe's colour checks read is then
the same, and the rest of axe's rules do not depend on the theme. (Until issue #43 axe ran
a second time on each switched page: 8 runs of 17 pages, about a fifth of the browser tests'
axe time.)"""

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
OPPOSITE = {"dark": "light", "light": "dark"}

# What a theme decides of an element and of its ::before and ::after, in document order;
# animations (a waiting seek's pulse) are set to their start first.
COLOURS = """() => {
  for (const animation of document.getAnimations()) {
    animation.pause();
    animation.currentTime = 0;
  }
  const props = ['color', 'background-color', 'background-image', 'border-top-color',
    'border-right-color', 'border-bottom-color', 'border-left-color', 'outline-color',
    'text-decoration-color', 'box-shadow', 'fill', 'stroke', 'opacity', 'filter'];
  const path = (e) => {
    const parts = [];
    for (; e && e.nodeType === 1; e = e.parentElement) {
      parts.unshift(e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''));
    }
    return parts.join('>');
  };
  const rows = [];
  for (const element of document.querySelectorAll('*')) {
    for (const pseudo of [null, '::before', '::after']) {
      const style = getComputedStyle(element, pseudo);
      if (pseudo && style.content === 'none') continue;
      rows.push([path(element) + (pseudo || ''), props.map((p) => style.getPropertyValue(p))]);
    }
  }
  return rows;
}"""


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


def visit_every_page(page, live_url: str, site: dict, check) -> None:
    """Each page of SIGNED_OUT, then sign in as marta and each of SIGNED_IN: `check(name)`."""
    for name, path in SIGNED_OUT:
        page.goto(live_url + path)
        check(name)
    sign_in(page, live_url, "marta@example.com", name="marta")
    for name, path in SIGNED_IN:
        page.goto(live_url + path.format(**site))
        check(name)


def differences(name: str, system: list, switched: list) -> list[str]:
    """Where the switched theme's colours differ from the system's on one page."""
    if len(system) != len(switched):
        return [f"{name}: {len(switched)} elements with the switch, {len(system)} without"]
    return [f"{name}: {a[0]} {b[1]} with the switch, {a[1]} by the system"
            for a, b in zip(system, switched, strict=True) if a != b][:5]


@pytest.mark.parametrize("screen", [390, 1366])
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_every_page_has_no_axe_violations(site, chromium_path, live_url, screen, theme):
    with browser(chromium_path) as opened:
        page = new_page(opened, screen, color_scheme=theme)
        page.emulate_media(color_scheme=theme)
        page.goto(live_url + "/")
        expect(page.locator("html")).not_to_have_attribute("data-theme", theme)
        failures: list[str] = []
        seen: dict[str, list] = {}

        def check(name: str) -> None:
            expect(page.locator("main")).to_be_visible()
            try:
                assert_accessible(page, f"{name}, {theme} by system, {screen}")
            except AssertionError as failure:  # every page is checked; all are reported
                failures.append(str(failure))
            seen[name] = page.evaluate(COLOURS)
            shoot(page, f"{name}-{screen}-{theme}-system")

        visit_every_page(page, live_url, site, check)
        assert not failures, "\n\n".join(failures)
        assert page.errors == []

        # The switch pressed on the opposite system: the same theme, colour for colour.
        page = new_page(opened, screen, color_scheme=OPPOSITE[theme])
        page.emulate_media(color_scheme=OPPOSITE[theme])
        page.goto(live_url + "/")
        page.locator("[data-theme-switch]").click()
        expect(page.locator("html")).to_have_attribute("data-theme", theme)

        def compare(name: str) -> None:
            expect(page.locator("main")).to_be_visible()
            failures.extend(differences(name, seen[name], page.evaluate(COLOURS)))

        visit_every_page(page, live_url, site, compare)
        shoot(page, f"no-such-game-{screen}-{theme}-switch")
        assert not failures, "\n".join(failures)
        assert page.errors == []
