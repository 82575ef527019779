"""The lobby's open seeks come first (issue #42, point 16: on a phone they were under the two
long forms, 2,900 px down): on a phone the list of open seeks is on the first screen, above
"Create a seek"; on a laptop the list and the forms stand side by side; the keyboard meets
them in the same order. Both games' tabs, both themes, axe clean; screenshots
`lobby-layout-*`."""

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import assert_fits_the_width, browser, new_page, shoot


@pytest.fixture
def seek(django_user_model, live_url):
    alice, bob = (django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD)
                  for n in ("alice", "bob"))
    return services.create_challenge(bob, options={"size": 7}, color="blue").id


@pytest.mark.parametrize("width", [390, 1366])
def test_open_seeks_come_first(seek, chromium_path, live_url, width):
    with browser(chromium_path) as opened:
        page = new_page(opened, width)
        sign_in(page, live_url)
        for game in ("cargo-connect", "cargo-express"):
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.goto(f"{live_url}/play/?game={game}")
                seeks = page.locator("#seeks-title")
                create = page.locator("#seek-title")
                expect(seeks).to_have_text("Open seeks")
                expect(page.locator(f"[data-id='{seek}']")).to_be_visible()
                a, b = seeks.bounding_box(), create.bounding_box()
                assert a and b
                if width == 390:
                    assert a["y"] + a["height"] <= 844, f"Open seeks at {a}"
                    assert a["y"] < b["y"]
                    row = page.locator(f"[data-id='{seek}']").bounding_box()
                    assert row and row["y"] + row["height"] <= 844, f"the seek at {row}"
                else:
                    assert a["x"] + a["width"] <= b["x"] and abs(a["y"] - b["y"]) < 40
                # The document's order is the order seen: the seeks, then the forms.
                assert page.evaluate("""() => Boolean(
                  document.getElementById('seeks-title').compareDocumentPosition(
                    document.getElementById('seek-title')) & Node.DOCUMENT_POSITION_FOLLOWING)""")
                assert_fits_the_width(page)
                assert_accessible(page, f"lobby {game} {width} {scheme}")
                shoot(page, f"lobby-layout-{game}-{width}-{scheme}")
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_sockets_snapshot_keeps_the_row_the_keyboard_is_on(seek, chromium_path, live_url):
    """The lobby socket's first frame (every open seek) arrives after the page is drawn: a
    row that did not change stays the same node, so the Accept button the keyboard is on
    keeps its focus (and a row being measured is not swapped under the reader, which a
    parallel run of the test above once showed). The frame is held here until the button
    has focus, then let through."""
    with browser(chromium_path) as opened:
        page = new_page(opened, 1366)
        sign_in(page, live_url)
        held: list[str | bytes] = []
        passed: list[str] = []

        def route(ws):
            server = ws.connect_to_server()

            def from_server(message):
                if not held and not passed:
                    held.append(message)  # the snapshot waits for the test
                else:
                    ws.send(message)
            server.on_message(from_server)

            def release():
                passed.append("released")
                ws.send(held[0])
            route.release = release  # type: ignore[attr-defined]

        page.route_web_socket("**/ws/lobby/**", route)
        page.goto(f"{live_url}/play/?game=cargo-connect")
        button = page.locator(f"[data-id='{seek}'] button")
        expect(button).to_have_text("Accept")
        for _ in range(50):
            if held:
                break
            page.wait_for_timeout(100)
        assert held and "seeks" in str(held[0])
        button.focus()
        page.evaluate(f"window.row = document.querySelector(\"[data-id='{seek}']\")")
        route.release()  # type: ignore[attr-defined]
        page.wait_for_timeout(300)
        assert page.evaluate(f"document.querySelector(\"[data-id='{seek}']\") === window.row")
        assert page.evaluate("document.activeElement.textContent") == "Accept"
        assert page.errors == []  # type: ignore[attr-defined]
