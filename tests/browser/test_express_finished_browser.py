"""A finished Cargo Express game (issue #42): the replay keeps its place when the view is
switched between "Everything" and "As Seat K saw it", and over a reload (point 15); the
game page checks the published seed hash against the revealed seed in the browser (Web
Crypto) and says "verified", or that it does not match (point 12). 390 and 1366 px, both
themes, axe clean; screenshots `express-finished-*`."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import assert_accessible
from tests.browser.finished_express import finished_express_game
from tests.browser.screens import assert_fits_the_width, browser, new_page, shoot


@pytest.fixture
def finished_game(live_url, django_user_model):
    """alice and bob's finished game, every decision the kind's Easy bot's, sent a step at a
    time: played once per test process, its rows re-loaded for each test
    (tests/browser/finished_express.py)."""
    return finished_express_game(django_user_model)


def tamper_everything_heard(page: Page, live_url: str, game_id: str, real: str, fake: str
                            ) -> None:
    """The game's page, its HTTP catch-up and its socket's frames all publish `fake` for
    the seed hash `real`: a page that heard the real hash from any of them (a socket's
    snapshot arriving while the browser hashes: a CI run under load) would check that."""

    def tamper(route):
        answer = route.fetch()
        route.fulfill(response=answer, body=answer.text().replace(real, fake))

    def tamper_socket(socket):
        server = socket.connect_to_server()
        socket.on_message(lambda message: server.send(message))
        server.on_message(lambda message: socket.send(
            message.replace(real, fake) if isinstance(message, str) else message))

    page.route(re.compile(rf"{re.escape(live_url)}/g/{game_id}(/events\?.*)?$"), tamper)
    page.route_web_socket(re.compile(r".*/ws/.*"), tamper_socket)


def decision(page: Page) -> tuple[int, int]:
    expect(page.locator("[data-ply]")).to_have_text(re.compile(r"Decision \d+ of \d+"))
    text = page.locator("[data-ply]").inner_text()
    found = re.fullmatch(r"Decision (\d+) of (\d+)", text)
    assert found, text
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize(("size", "scheme"), [(1366, "dark"), (390, "light")])
def test_switching_the_replays_view_keeps_the_place(finished_game, chromium_path, live_url,
                                                     size, scheme):
    with browser(chromium_path) as opened:
        page = new_page(opened, size, scheme)
        page.goto(f"{live_url}/g/{finished_game}/replay")
        _, last = decision(page)
        page.locator("[data-first]").click()
        for _ in range(4):
            page.locator("[data-next]").click()
        expect(page.locator("[data-ply]")).to_have_text(f"Decision 4 of {last}")
        assert page.url.endswith("/replay#decision-4")

        whose = page.get_by_role("navigation", name="Whose view")
        whose.get_by_role("link", name=re.compile(r"As Seat 1")).click()
        expect(page).to_have_url(re.compile(r"/replay\?as=0#decision-4$"))
        expect(page.locator("[data-ply]")).to_have_text(f"Decision 4 of {last}")
        expect(page.locator("[data-seen-as]")).to_contain_text("saw it")
        page.locator("[data-next]").click()  # the place moves on with the steps
        expect(page.locator("[data-ply]")).to_have_text(f"Decision 5 of {last}")
        shoot(page, f"express-finished-replay-as-{size}-{scheme}")
        assert_accessible(page, f"replay as seat 1 {size} {scheme}")

        whose.get_by_role("link", name="Everything").click()
        expect(page.locator("[data-seen-as]")).to_contain_text("Everything")
        expect(page.locator("[data-ply]")).to_have_text(f"Decision 5 of {last}")
        page.reload()
        expect(page.locator("[data-ply]")).to_have_text(f"Decision 5 of {last}")
        page.locator("[data-last]").click()  # the end needs no place in the address
        expect(page.locator("[data-ply]")).to_have_text(f"Decision {last} of {last}")
        assert "#" not in page.url
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_finished_games_page_checks_the_seed_hash_in_the_browser(finished_game,
                                                                      chromium_path, live_url):
    with browser(chromium_path) as opened:
        for screen, scheme in ((1366, "dark"), (390, "light"), (390, "dark"), (1366, "light")):
            page = new_page(opened, screen, scheme)
            page.goto(f"{live_url}/g/{finished_game}")
            check = page.locator("[data-seed-check]")
            expect(check).to_have_attribute("data-seed-check", "verified")
            expect(check).to_contain_text("✓ Verified")
            seed = page.evaluate("() => window.liveGame.state.seed")
            assert seed and f"cargo-express:{finished_game}:{seed}" in check.inner_text()
            if screen == 1366:
                # The check is the browser's own: a page whose published hash differs says so.
                real = page.evaluate("() => window.liveGame.state.seed_hash")
                fake = ("0" if real[0] != "0" else "1") + real[1:]

                tampered = new_page(opened, screen, scheme)
                tamper_everything_heard(tampered, live_url, finished_game, real, fake)
                tampered.goto(f"{live_url}/g/{finished_game}")
                lie = tampered.locator("[data-seed-check]")
                expect(lie).to_have_attribute("data-seed-check", "mismatch")
                expect(lie).to_contain_text("✗ Does not match")
                tampered.close()
                page.reload()
                expect(check).to_have_attribute("data-seed-check", "verified")

            # The replay showing everything checks every round's stacks' fingerprints.
            page.goto(f"{live_url}/g/{finished_game}/replay")
            prints = page.locator("[data-fingerprints]")
            expect(prints).to_have_attribute("data-fingerprints", "verified")
            found = re.search(r"all (\d+) stacks' fingerprints match", prints.inner_text())
            assert found and int(found.group(1)) >= 2, prints.inner_text()
            expect(page.locator("[data-seed-check]")).to_have_attribute(
                "data-seed-check", "verified")
            shoot(page, f"express-finished-replay-checked-{screen}-{scheme}")
            assert_accessible(page, f"replay checked {screen} {scheme}")
            page.goto(f"{live_url}/g/{finished_game}")
            expect(check).to_have_attribute("data-seed-check", "verified")
            shoot(page, f"express-finished-game-checked-{screen}-{scheme}")
            assert_accessible(page, f"finished game checked {screen} {scheme}")
            assert page.errors == []  # type: ignore[attr-defined]


def test_how_to_plays_example_hashes_are_the_browsers_too(chromium_path, live_url):
    """The worked example's texts, hashed by the browser's Web Crypto, give the hashes the
    page shows (computed by the server's functions): one construction, both sides."""
    with browser(chromium_path) as opened:
        for screen, scheme in ((390, "light"), (1366, "dark")):
            page = new_page(opened, screen, scheme)
            page.goto(f"{live_url}/how-to-play/cargo-express#fair")
            pairs = page.evaluate("""async () => {
              const { sha256Hex } = await import('/static/js/cargo-express/fairness.js');
              const out = {};
              for (const node of document.querySelectorAll('[data-fair-text]')) {
                const name = node.dataset.fairText;
                const shown = document.querySelector(`[data-fair-hash=${name}]`).textContent;
                out[name] = [(await sha256Hex(node.textContent)).slice(0, shown.length), shown];
              }
              return out;
            }""")
            assert set(pairs) == {"seed", "salt", "fingerprint"}
            for name, (computed, shown) in pairs.items():
                assert computed == shown, name
            assert_fits_the_width(page)
            shoot(page, f"express-howto-fair-{screen}-{scheme}", full_page=False)
            assert_accessible(page, f"howto fair {screen} {scheme}")


@pytest.fixture
def finished_connect(finished_game, django_user_model):
    """A finished Cargo Connect game of the same alice and bob."""
    from tests.games.support import new_game, scripted_tokens
    from tests.review.support import play_out

    alice, bob = (django_user_model.objects.get(username=name) for name in ("alice", "bob"))
    return play_out(new_game(alice, bob, size=5), scripted_tokens(5), alice, bob).id


def test_the_rematch_offer_says_seats_in_express_and_colours_in_connect(
        finished_game, finished_connect, chromium_path, live_url):
    """Issue #42, point 16: a finished two-seat Cargo Express game offered "Play again,
    colours swapped?"; Cargo Express's seats have no colours to swap."""
    from tests.browser.devices import sign_in

    with browser(chromium_path) as opened:
        page = new_page(opened, 390, "dark")
        sign_in(page, live_url, "alice@example.com", name="alice")
        page.goto(f"{live_url}/g/{finished_game}")
        box = page.locator("[data-rematch]")
        expect(box).to_contain_text("Play again, seats swapped?")
        expect(box).not_to_contain_text("colour")
        assert_accessible(page, "express rematch box")
        page.goto(f"{live_url}/g/{finished_connect}")
        expect(box).to_contain_text("Play again, colours swapped?")
        assert page.errors == []  # type: ignore[attr-defined]
