"""Issue #26's browser test, whole: a member hosts a 3-seat Cargo Express table from the
lobby's form with ExpressBot Easy in the third seat, a second member joins it from another
browser context, the game starts; both people pick, plan and play their turns through the
page; the second reloads mid-planning and sees only their own stack; then the people's
remaining decisions are made through the services (as the page would, quickly) and both
pages show the final scoring with every seat's place. No script error on any page."""

from __future__ import annotations

import re
import threading
import time

from django.db import connection
from playwright.sync_api import expect

from games.actors import Actor
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.browser.test_express_live_browser import decide, state
from tests.games.bot_support import eager
from tests.games.express_support import play_out

__all__ = ["eager"]


def test_host_a_table_join_it_play_a_round_and_see_the_final_scoring(
        eager, chromium_path, live_url, django_user_model):
    users = {name: django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in ("marta", "kofi")}
    with browser(chromium_path) as opened:
        marta = new_page(opened, 1366, "dark", motion=False)
        kofi = new_page(opened, 390, "light", motion=False)
        sign_in(marta, live_url, "marta@example.com", name="marta")
        sign_in(kofi, live_url, "kofi@example.com", name="kofi")

        marta.goto(live_url + "/play/?game=cargo-express")
        form = marta.locator("form.seek-form").first
        for choice in ("seats-3", "rated-casual", "time_control-untimed", "bot_2-easy"):
            form.locator(f'label[for="{choice}"]').click()
        form.get_by_role("button", name="Create a seek").click()
        row = kofi.locator(".seek", has_text="marta")
        kofi.goto(live_url + "/play/?game=cargo-express")
        expect(row).to_contain_text("Cargo Express · 3 players")
        expect(row).to_contain_text("ExpressBot Easy")
        row.get_by_role("button", name="Join").click()
        for page in (marta, kofi):
            expect(page).to_have_url(re.compile(r"/g/[0-9A-Za-z]{10}$"), timeout=15_000)
            expect(page.locator("[data-connection]")).to_have_text("Live")
        game_id = marta.url.rsplit("/", 1)[1]
        assert kofi.url.endswith(game_id)
        seats = {state(page)["viewer"]: page for page in (marta, kofi)}
        assert sorted(seats) in ([0, 1], [0, 2], [1, 2])  # the seats were drawn

        reloaded = False
        for _ in range(120):  # pick, plan and play through the page to round 2
            if state(marta).get("round", 1) >= 2:
                break
            moved = False
            for seat, page in seats.items():
                choice = decide(page)
                moved = moved or bool(choice)
                if choice == "commit" and not reloaded and page is kofi:
                    reloaded = True
                    kofi.reload()
                    expect(kofi.locator("[data-connection]")).to_have_text("Live")
                    mine = state(kofi)["areas"][seat]
                    assert mine["plan"] is not None  # his stack (less any card revealed)
                    assert len(mine["played"]) + len(mine["plan"]) == 3
                    for other, area in enumerate(state(kofi)["areas"]):
                        if other != seat:
                            assert area["plan"] is None and area["hand"] is None
            if not moved:
                marta.wait_for_timeout(200)
        assert reloaded and state(marta)["round"] >= 2

        actors = {s: Actor.member(users["marta" if seats[s] is marta else "kofi"])
                  for s in seats}
        done = []

        def finish_it():  # off Playwright's event loop: Django refuses a query there
            try:
                for _ in range(100):  # the bot's seat decides in its own task meanwhile
                    try:
                        done.append(play_out(game_id, actors,
                                             lambda fn, *a, **k: fn(*a, **k)))
                        return
                    except AssertionError as waiting:
                        if "waiting for the bots" not in str(waiting):
                            raise
                        time.sleep(0.2)
            finally:
                connection.close()

        worker = threading.Thread(target=finish_it)
        worker.start()
        worker.join(timeout=300)
        assert done and done[0].status == "finished"
        for page in (marta, kofi):
            expect(page.locator("[data-scores]")).to_contain_text("Final scoring",
                                                                  timeout=120_000)
            places = state(page)["result"]["places"]
            assert sorted(places)[0] == 1 and len(places) == 3
            assert state(page)["seed"] is not None
        shoot(marta, "express-table-to-the-end-1366-dark")
        shoot(kofi, "express-table-to-the-end-390-light")
        for page in (marta, kofi):
            assert page.errors == [], page.errors  # type: ignore[attr-defined]
