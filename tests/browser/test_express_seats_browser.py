"""Issue #42, points 7, 8 and 9, in the browser: Cargo Express's seat panels show each
seat's rating ("1200?" while provisional) and who plays a seat whose holder left ("Played
by ExpressBot Medium since round 2 (carol resigned)"), the round's log tells the hand-over,
the player who left is told why they watch, a rated game the last person left ends on the
standings with each rating's change in the final box, and the replay's header says who
played which seat. 390 px light and 1366 px dark, axe clean, no script error."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection, transaction
from playwright.sync_api import expect

from games import services
from games.actors import Actor
from rankings.models import Rating
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.games.bot_support import eager
from tests.platform.test_express_seats import play_to_round  # the people play as Easy

__all__ = ["eager"]
NAMES = ("alice", "bob", "carol")


def rated_game(users):
    return services.create_game(game_type="cargo-express", options={}, rated=True,
                                time_control="10+5",
                                seats=[Actor.member(users[n]) for n in NAMES])


def signed_in(opened, live_url, name, screen, scheme):
    page = new_page(opened, screen, scheme, motion=False)
    sign_in(page, live_url, f"{name}@example.com", name=name)
    return page


@pytest.mark.parametrize(("screen", "scheme"), [(390, "light"), (1366, "dark")])
def test_ratings_and_seats_played_by_bots_on_every_page(eager, chromium_path, live_url,
                                                       django_user_model, screen, scheme):
    users = {n: django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD)
             for n in NAMES}
    going = rated_game(users)  # carol leaves in round 2: Medium plays her seat on
    play_to_round(going.id, users, 2)
    services.resign(going.id, actor=Actor.member(users["carol"]))
    ended = rated_game(users)  # carol, then bob, then alice (the last person) leave
    play_to_round(ended.id, users, 2)
    for name in ("carol", "bob", "alice"):
        services.resign(ended.id, actor=Actor.member(users[name]))
    assert services.get_game(ended.id).status == "finished"
    # The game going on shows alice's rating now, which the ended game moved.
    now = Rating.objects.get(user=users["alice"], game_type="cargo-express").value
    tag = f"{screen}-{scheme}"

    with browser(chromium_path) as opened:
        bob = signed_in(opened, live_url, "bob", screen, scheme)
        bob.goto(f"{live_url}/g/{going.id}")
        expect(bob.locator("[data-connection]")).to_have_text("Live")
        carol_panel = bob.locator(".xp-seat-panel.xp-panel-3")
        expect(carol_panel.locator(".xp-played-by")).to_have_text(
            "Played by ExpressBot Medium since round 2 (carol resigned)")
        alice_rating = bob.locator(".xp-seat-panel.xp-panel-1 .xp-rating")
        expect(alice_rating).to_have_text(f"rating {now}?")
        expect(alice_rating.locator("abbr.provisional")).to_have_attribute(
            "title", "provisional: too few games to be sure yet")
        expect(bob.locator("[data-log]")).to_contain_text(
            "carol (Seat 3) resigned: ExpressBot Medium plays the seat from now (round 2).")
        shoot(bob, f"express-seats-handed-{tag}")
        shoot(carol_panel, f"express-seats-panel-{tag}")
        assert_accessible(bob, f"a seat played by a bot, {tag}")

        carol = signed_in(opened, live_url, "carol", screen, scheme)
        carol.goto(f"{live_url}/g/{going.id}")
        expect(carol.locator(".watching-label")).to_have_text("Watching")
        expect(carol.locator("[data-left-note]")).to_have_text(
            "You resigned in round 2: ExpressBot Medium plays your seat, so you are watching.")
        shoot(carol, f"express-seats-leaver-{tag}", full_page=False)
        assert_accessible(carol, f"the leaver's page, {tag}")

        alice = signed_in(opened, live_url, "alice", screen, scheme)
        alice.goto(f"{live_url}/g/{ended.id}")
        box = alice.locator("[data-scores]")
        expect(box.get_by_role("heading", name="Final standings")).to_be_visible()
        expect(alice.locator("[data-status-line]")).to_contain_text(
            "Seat 1 (alice) resigned, the last person at the table: the game ends on the "
            "standings, Seat 1 (alice) wins")
        shown = box.locator(".xp-score-table" if screen == 1366 else ".xp-score-cards")
        for seat in range(3):
            change = shown.locator(f'[data-seat="{seat}"] .rating-change')
            expect(change).to_have_text(re.compile(r"^[+\u2212]\d+$"))
        expect(shown.locator('[data-seat="0"] .rating-change')).to_have_class(
            re.compile(r"\bup\b"))
        expect(shown.locator('[data-seat="2"] .rating-change')).to_have_class(
            re.compile(r"\bdown\b"))
        expect(alice.locator(".xp-seat-panel.xp-panel-1 .xp-rating")).to_contain_text(
            re.compile(r"^rating 1200\?\s*\+\d+$"))
        # The game is over: the clock bar no longer stays over the final scoring.
        expect(alice.locator("[data-clock-bar]")).to_have_css("position", "static")
        box.scroll_into_view_if_needed()
        shoot(alice, f"express-seats-standings-{tag}")
        shoot(box, f"express-seats-box-{tag}")
        assert_accessible(alice, f"the final standings, {tag}")

        alice.goto(f"{live_url}/g/{ended.id}/replay")
        expect(alice.locator('.xp-handed[data-handed="2"]')).to_have_text(
            re.compile(r"^Seat 3 \(carol\): played by ExpressBot Medium since round 2 "
                       r"\(carol resigned\)\.$"))
        expect(alice.locator('.xp-handed[data-handed="0"]')).to_have_text(
            "Seat 1 (alice): resigned in round 2, the last person at the table: the game "
            "ended there, on the standings.")
        expect(alice.locator(".xp-seat-panel.xp-panel-2 .xp-played-by")).to_contain_text(
            "Played by ExpressBot Medium since round 2 (bob resigned)")
        shoot(alice, f"express-seats-replay-{tag}")
        shoot(alice.locator(".xp-handed").first.locator("xpath=.."),
              f"express-seats-replay-head-{tag}")
        assert_accessible(alice, f"the replay, {tag}")
        for page in (bob, carol, alice):
            assert page.errors == [], page.errors  # type: ignore[attr-defined]


def test_a_hand_over_while_the_page_is_open_is_told_in_the_log_and_the_message(
        eager, chromium_path, live_url, django_user_model):
    """Bob's page is open when carol times out twice: the `resigned` frame's event joins
    the round's log at once, the message line says what happened (never "resigned" for
    a timeout), and her panel names the bot."""
    users = {n: django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD)
             for n in NAMES}
    game = rated_game(users)
    play_to_round(game.id, users, 2)

    with browser(chromium_path) as opened:
        bob = signed_in(opened, live_url, "bob", 390, "light")
        bob.goto(f"{live_url}/g/{game.id}")
        expect(bob.locator("[data-connection]")).to_have_text("Live")
        bob.evaluate("""() => {  // every text the message line shows (a bot's turn follows)
          const line = document.querySelector("[data-message]");
          window.saidLines = [];
          new MutationObserver(() => window.saidLines.push(line.textContent))
            .observe(line, { childList: true, characterData: true, subtree: true });
        }""")

        def carol_times_out():  # off Playwright's event loop: Django refuses a query there
            try:
                row = services.get_game(game.id)
                with transaction.atomic():
                    from games.turns import play
                    from games.turns.store import lock_game

                    play.leave(lock_game(row.id), 2, "timed_out", reason="timed_out")
            finally:
                connection.close()

        worker = threading.Thread(target=carol_times_out)
        worker.start()
        worker.join()
        said = "carol (Seat 3) timed out twice in a row: ExpressBot Medium plays the seat from now"
        expect(bob.locator("[data-log]")).to_contain_text(f"{said} (round 2).")
        lines = bob.evaluate("() => window.saidLines")
        assert f"{said}." in lines and not any("resigned" in line for line in lines), lines
        expect(bob.locator(".xp-seat-panel.xp-panel-3 .xp-played-by")).to_have_text(
            "Played by ExpressBot Medium since round 2 (carol timed out twice in a row)")
        shoot(bob, "express-seats-live-hand-over-390-light", full_page=False)
        assert_accessible(bob, "a hand-over told live")
        assert bob.errors == [], bob.errors  # type: ignore[attr-defined]
