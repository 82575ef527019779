"""Web push on the notification settings page, in Chromium (issue #29): with the site's
VAPID keys set, the page registers the service worker at /sw.js (scope: the whole site),
says push is off in this browser, and its button asks the browser's permission, subscribes
and POSTs the subscription, which the server keeps for the member; turning it off tells
the server, which forgets it. Chromium's push service is not reachable here, so the
browser's `PushManager.subscribe` is replaced by one that answers a made-up subscription:
everything of ours (the module, the CSRF'd POSTs, the view, the row) is real. Without keys
the page says push is not offered. axe on every page; screenshots at 390 and 1366 px in
both themes."""

from __future__ import annotations

import base64

import pytest
from playwright.sync_api import expect

from notifications.models import PushSubscription
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot
from tests.browser.test_chat_browser import in_thread

ENDPOINT = "https://push.example.com/send/browser-1"
P256DH = base64.urlsafe_b64encode(b"\x04" + b"k" * 64).rstrip(b"=").decode()
AUTH = base64.urlsafe_b64encode(b"a" * 16).rstrip(b"=").decode()
FAKE_PUSH = """(() => {
  if (!window.PushManager) return;
  let current = null;
  const made = {
    endpoint: "ENDPOINT",
    toJSON() { return { endpoint: this.endpoint, keys: { p256dh: "P256DH", auth: "AUTH" } }; },
    async unsubscribe() { current = null; return true; },
  };
  PushManager.prototype.subscribe = async function (options) {
    if (!(options.applicationServerKey instanceof Uint8Array)
        || options.applicationServerKey.length !== 65) throw new Error("bad key");
    current = made;
    return made;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
})();""".replace("ENDPOINT", ENDPOINT).replace("P256DH", P256DH).replace("AUTH", AUTH)


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)


@pytest.fixture
def keys(settings):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    settings.WEBPUSH_VAPID_PUBLIC_KEY = (  # a test-only pair
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoI"
        "Aiw4")


def rows():
    found = []
    in_thread(lambda: found.extend(PushSubscription.objects.values_list("endpoint",
                                                                        "user__username")))
    return found


def test_turning_push_on_and_off_in_the_browser(bob, keys, chromium_path, live_url):
    with browser(chromium_path) as opened:
        for screen, scheme in ((1366, "light"), (390, "dark")):
            page = new_page(opened, screen, scheme)
            page.context.grant_permissions(["notifications"], origin=live_url)
            page.add_init_script(FAKE_PUSH)
            sign_in(page, live_url, "bob@example.com", name="bob")
            page.goto(f"{live_url}/notifications/settings")
            panel = page.locator("[data-push]")
            expect(panel.locator("[data-push-status]")).to_have_text(
                "Push notifications are off in this browser.")
            scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
            assert scope == f"{live_url}/"
            assert_accessible(page, f"notification settings, push off, {screen}, {scheme}")
            shoot(page, f"push-settings-off-{screen}-{scheme}")
            panel.get_by_role("button", name="Turn on push in this browser").click()
            expect(panel.locator("[data-push-status]")).to_have_text(
                "Push notifications are on in this browser.")
            assert rows() == [(ENDPOINT, "bob")]
            expect(panel.get_by_role("button", name="Turn on push in this browser")) \
                .to_be_hidden()
            shoot(page, f"push-settings-on-{screen}-{scheme}")
            panel.get_by_role("button", name="Turn off push in this browser").click()
            expect(panel.locator("[data-push-status]")).to_have_text(
                "Push notifications are off in this browser.")
            assert rows() == []
            assert page.errors == [], page.errors  # type: ignore[attr-defined]
            page.context.close()


def test_without_keys_the_page_says_push_is_not_offered(bob, chromium_path, live_url):
    with browser(chromium_path) as opened:
        page = new_page(opened, 390, "light")
        sign_in(page, live_url, "bob@example.com", name="bob")
        page.goto(f"{live_url}/notifications/settings")
        expect(page.locator("[data-push-unavailable]")).to_have_text(
            "Push notifications are not offered on this site (it has no push keys set).")
        expect(page.locator("[data-push]")).to_have_count(0)
        assert_accessible(page, "notification settings without push, 390, light")
        shoot(page, "push-settings-unavailable-390-light")
