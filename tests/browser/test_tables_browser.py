"""A table of three in the lobby (docs/tables.md), with the test-only Pile offered there:
the lobby with its game chooser, the Pile's options drawn from the kind and the table's row
(who sits, free seats, the host), and the table's page, on a phone and a laptop in both
themes, with axe (0 violations) and a screenshot of each; then, live, a player leaves and
joins again while the host watches the lobby, and the host starts the table with a bot."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.actors import Actor
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.platform.conftest import lobby_pile  # noqa: F401  (fixture)


@pytest.fixture
def tables(lobby_pile, django_user_model):  # noqa: F811
    users = {name: django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in ("marta", "kofi", "ada")}
    table = services.create_challenge(users["marta"], game_type="pile",
                                      options={"counters": 11}, time_control="")
    services.join_table(Actor.member(users["kofi"]), table.id)
    services.create_challenge(users["ada"], options={"size": 7}, color="blue")
    return {"table": table.id}


def test_the_lobby_and_a_table_of_three_on_both_screens_and_themes(tables, chromium_path,
                                                                   live_url):
    failures = []
    with browser(chromium_path) as opened:
        for screen in (390, 1366):
            for theme in ("dark", "light"):
                page = new_page(opened, screen, color_scheme=theme)
                sign_in(page, live_url, "marta@example.com", name="marta")
                for name, path in (("lobby-pile", "/play/?game=pile"),
                                   ("table", f"/challenge/{tables['table']}")):
                    page.goto(live_url + path)
                    expect(page.locator("main")).to_be_visible()
                    try:
                        assert_accessible(page, f"{name}, {theme}, {screen}")
                    except AssertionError as failure:
                        failures.append(str(failure))
                    shoot(page, f"tables-{name}-{screen}-{theme}")
                page.goto(live_url + "/play/?game=pile")
                expect(page.locator(".seek.is-table")).to_contain_text(
                    "3 seats, 1 free: marta (host), kofi, open")
                expect(page.get_by_role("group", name="Counters")).to_be_visible()
                assert page.errors == []  # type: ignore[attr-defined]
                page.context.close()
    assert not failures, "\n\n".join(failures)


def test_joins_and_leaves_show_live_and_the_host_starts_with_a_bot(tables, chromium_path,
                                                                   live_url):
    table = tables["table"]
    with browser(chromium_path) as opened:
        host, kofi = new_page(opened, 1366), new_page(opened, 390)
        sign_in(host, live_url, "marta@example.com", name="marta")
        sign_in(kofi, live_url, "kofi@example.com", name="kofi")
        host.goto(live_url + "/play/?game=pile")
        row = host.locator(f'.seek[data-id="{table}"]')
        expect(row).to_contain_text("1 free")
        host.wait_for_timeout(500)  # the lobby socket is open

        kofi.goto(live_url + f"/challenge/{table}")
        kofi.get_by_role("button", name="Leave the table").click()
        expect(kofi).to_have_url(re.compile(r"/play/$"))
        expect(row).to_contain_text("3 seats, 2 free: marta (host), open, open")  # live
        kofi.goto(live_url + "/play/?game=pile")
        kofi.locator(f'.seek[data-id="{table}"]').get_by_role("button", name="Join").click()
        expect(kofi).to_have_url(re.compile(f"/challenge/{table}$"))
        expect(row).to_contain_text("3 seats, 1 free: marta (host), kofi, open")  # live

        host.goto(live_url + f"/challenge/{table}")
        shoot(host, "tables-table-host-1366-dark")
        host.get_by_role("button", name="Start now with bots").click()
        expect(host).to_have_url(re.compile(r"/g/[0-9A-Za-z]{10}$"))
        expect(kofi).to_have_url(host.url)  # told by the lobby socket (or its poll)
        # (the Pile's game page borrows Cargo Connect's view, which cannot draw it: its
        # script errors there are not this test's business)
