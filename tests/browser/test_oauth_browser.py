"""OAuth 2 with PKCE in Chromium (issue #47): a signed-out member sent to an app's consent
page signs in and comes back to it; the page (390 and 1366 px, both themes, axe clean, no
sideways scrolling) lets its form's answer go on to the app's loopback redirect (the page's
CSP `form-action` names it: Chromium checks the redirect that follows the form); the code
and its verifier give the app a token that reads the API; the member sees the app on the
tokens page and revokes it there."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.api.oauth_flow import REDIRECT, authorize_url, pkce, register_app
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD
from tests.browser.screens import browser, new_page, shoot
from tests.browser.test_api_browser import no_sideways_scroll
from tests.browser.test_chat_browser import in_thread

SCREENS = ((390, "dark"), (1366, "light"), (390, "light"), (1366, "dark"))


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)


class Listener:
    """The app's own loopback listener (RFC 8252), on a port of its choosing: it keeps
    each request's path and answers "got it"."""

    def __init__(self) -> None:
        got: list[str] = []

        class Answer(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                got.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"got it")

            def log_message(self, *args: object) -> None:
                pass

        self.got = got
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
        port = self.server.server_address[1]
        self.redirect = REDIRECT.replace("8765", str(port))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def test_an_app_is_authorised_used_and_revoked(bob, chromium_path, live_url):
    apps: list = []
    in_thread(lambda: apps.append(register_app()))  # registered with port 8765's URI
    app = apps[0]
    listener = Listener()
    with browser(chromium_path) as opened:
        for screen, scheme in SCREENS:
            page = new_page(opened, screen, scheme)
            pair = pkce()
            page.goto(live_url + authorize_url(app, "read board:play", pair,
                                               redirect=listener.redirect))
            expect(page).to_have_url(f"{live_url}/accounts/login/?next=" +
                                     page.url.split("next=", 1)[1])
            page.get_by_label("Login").fill("bob@example.com")
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Sign In").click()
            heading = page.get_by_role("heading", name="Authorise “Board Buddy”?")
            expect(heading).to_be_visible()
            expect(page.locator("[data-consent-scopes] li")).to_have_count(2)
            no_sideways_scroll(page)
            assert_accessible(page, f"OAuth consent, {screen}, {scheme}")
            shoot(page, f"oauth-consent-{screen}-{scheme}")
            page.get_by_role("button", name="Authorise").click()
            expect(page.get_by_text("got it")).to_be_visible()
            query = parse_qs(urlsplit(listener.got[-1]).query)
            assert page.errors == []
            answer = page.request.post(f"{live_url}/oauth/token/", form={
                "grant_type": "authorization_code", "code": query["code"][0],
                "redirect_uri": listener.redirect, "client_id": app.client_id,
                "code_verifier": pair.verifier})
            assert answer.status == 200, answer.text()
            token = answer.json()["access_token"]
            me = page.request.get(f"{live_url}/api/user/bob",
                                  headers={"Authorization": f"Bearer {token}"})
            assert me.status == 200 and me.json()["username"] == "bob"
            page.goto(f"{live_url}/accounts/tokens/")
            listed = page.locator("[data-app-id]", has_text="Board Buddy")
            expect(listed).to_contain_text("board:play")
            no_sideways_scroll(page)
            assert_accessible(page, f"API tokens with an app, {screen}, {scheme}")
            shoot(page, f"oauth-apps-{screen}-{scheme}")
            listed.get_by_role("button", name="Revoke Board Buddy").click()
            expect(page.locator("[data-app-id]")).to_have_count(0)
            refused = page.request.get(f"{live_url}/api/user/bob",
                                       headers={"Authorization": f"Bearer {token}"})
            assert refused.status == 401 and refused.json()["code"] == "revoked_token"
            page.context.close()
    listener.server.shutdown()
