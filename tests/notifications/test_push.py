"""Web push (notifications/push.py, issue #29): a notification a member wants pushed
reaches a push service after commit, as pywebpush sends it: a POST with the VAPID
`Authorization` header signed by the site's key and a body encrypted for the browser
(`Content-Encoding: aes128gcm`) that decrypts to the title, the public text and the
page's address only. The push service here is a tiny HTTP server started by the test, in
a thread, that records what it receives; a 410 from it deletes the subscription, a 500 is
noted on it. Subscribing is members only, with CSRF; bad input is a 400 saying why, and
nothing is saved; without the keys push is not offered."""

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import Client
from py_vapid import Vapid02

from games import services
from games.actors import Actor
from notifications import choices, push
from notifications.models import Kind, PushSubscription
from tests.games.bot_support import eager
from tests.games.support import new_game
from tests.notifications.support import correspondence_game, play

__all__ = ["eager"]  # a fixture

pytestmark = pytest.mark.django_db


def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture
def vapid(settings):
    """The site's VAPID key pair, as the environment gives it."""
    key = Vapid02()
    key.generate_keys()
    private = key.private_key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key.public_bytes(serialization.Encoding.X962,
                                         serialization.PublicFormat.UncompressedPoint)
    settings.WEBPUSH_VAPID_PRIVATE_KEY = b64url(private)
    settings.WEBPUSH_VAPID_PUBLIC_KEY = b64url(public)
    settings.WEBPUSH_CONTACT = "mailto:admin@example.com"
    return b64url(public)


class PushService:
    """A push service on 127.0.0.1: records each request, answers `status`."""

    def __init__(self):
        self.requests, self.status = [], 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.requests.append((self.path, headers, body))
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def service():
    running = PushService()
    yield running
    running.close()


class Browser:
    """A browser's side of a subscription: its P-256 key pair and auth secret."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.p256dh = b64url(self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    def subscription(self, endpoint):
        return {"endpoint": endpoint, "keys": {"p256dh": self.p256dh,
                                               "auth": b64url(self.auth)}}

    def subscribe(self, user, endpoint):
        """The row the subscribe view saves (the test's endpoint is http: the view takes
        https only, as every push service's is)."""
        data = self.subscription(endpoint)
        return PushSubscription.objects.create(user=user, endpoint=endpoint,
                                               p256dh=data["keys"]["p256dh"],
                                               auth=data["keys"]["auth"])

    def read(self, body):
        return json.loads(http_ece.decrypt(body, private_key=self.key,
                                           auth_secret=self.auth, version="aes128gcm"))


def test_a_correspondence_turn_is_pushed_signed_and_encrypted(
        users, vapid, service, eager, django_capture_on_commit_callbacks):
    alice, bob = users["alice"], users["bob"]
    browser = Browser()
    browser.subscribe(bob, service.url("/push/bob-1"))
    with django_capture_on_commit_callbacks(execute=True):
        game = correspondence_game(alice, bob)
    assert service.requests == []  # alice's turn: bob's browser hears nothing
    with django_capture_on_commit_callbacks(execute=True):
        play(game.id, alice)
    [(path, headers, body)] = service.requests
    assert path == "/push/bob-1"
    assert headers["content-encoding"] == "aes128gcm"
    assert int(headers["ttl"]) == push.TTL
    auth = headers["authorization"]
    assert auth.startswith("vapid t=") and f",k={vapid}" in auth
    assert Vapid02.verify(auth)  # signed by the site's private key
    assert b"Your turn" not in body  # encrypted
    assert browser.read(body) == {"title": "Your turn",
                                  "body": "Your turn in Cargo Connect with alice",
                                  "url": f"/g/{game.id}", "tag": f"game-{game.id}"}
    sub = PushSubscription.objects.get()
    assert sub.last_success is not None and sub.last_failure is None


def test_live_moves_push_nothing_and_a_kind_turned_off_is_not_pushed(
        users, vapid, service, eager, django_capture_on_commit_callbacks):
    alice, bob = users["alice"], users["bob"]
    Browser().subscribe(bob, service.url("/push/bob"))
    with django_capture_on_commit_callbacks(execute=True):
        game = new_game(alice, bob, time_control="10+5")
        play(game.id, alice)
        play(game.id, bob)
    assert service.requests == []  # a live game: never a push per move
    choices.save(bob, in_site=[Kind.REMATCH_OFFERED], by_email=[], digest=False,
                 alarm=False, by_push=[Kind.GAME_ENDED])
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game.id, actor=Actor.member(bob))
        services.offer_rematch(game.id, actor=Actor.member(alice))
    assert service.requests == []  # rematch offers: in the bell, not pushed


def test_a_gone_subscription_is_deleted_and_a_failure_noted(
        users, vapid, service, eager, django_capture_on_commit_callbacks):
    alice, bob = users["alice"], users["bob"]
    Browser().subscribe(bob, service.url("/push/gone"))
    service.status = 410
    with django_capture_on_commit_callbacks(execute=True):
        game = correspondence_game(bob, alice)  # bob is Blue: his turn
    assert len(service.requests) == 1
    assert not PushSubscription.objects.exists()
    sub = Browser().subscribe(bob, service.url("/push/broken"))
    service.status = 500
    with django_capture_on_commit_callbacks(execute=True):
        play(game.id, bob)
        play(game.id, alice)
    sub.refresh_from_db()
    assert sub.last_failure is not None and sub.failure == "HTTP 500"


def test_without_keys_nothing_is_offered_nor_sent(users, service, eager, settings,
                                                 django_capture_on_commit_callbacks):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = settings.WEBPUSH_VAPID_PUBLIC_KEY = ""
    Browser().subscribe(users["bob"], service.url("/push/bob"))
    client = Client()
    client.force_login(users["bob"])
    page = client.get("/notifications/settings").content.decode()
    assert "Push notifications are not offered on this site" in page
    assert "data-push " not in page and "js/push.js" not in page
    with django_capture_on_commit_callbacks(execute=True):
        correspondence_game(users["bob"], users["alice"])
    assert service.requests == []
    answer = client.post("/notifications/push/subscribe",
                         Browser().subscription("https://push.example.com/x"),
                         content_type="application/json")
    assert answer.status_code == 400
    assert answer.json() == {"error": "web push is not offered on this site"}


def test_the_settings_page_offers_it_with_the_public_key(users, vapid):
    client = Client()
    client.force_login(users["bob"])
    page = client.get("/notifications/settings").content.decode()
    assert f'data-key="{vapid}"' in page and "js/push.js" in page
    assert "Turn on push in this browser" in page
    assert 'name="by_push" value="your_turn"' in page


def test_subscribing_and_unsubscribing(users, vapid):
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["bob"])
    client.get("/notifications/settings")
    csrf = client.cookies["csrftoken"].value
    browser = Browser()
    data = browser.subscription("https://push.example.com/send/abc")
    url = "/notifications/push/subscribe"
    assert client.post(url, data, content_type="application/json").status_code == 403
    answer = client.post(url, data, content_type="application/json", HTTP_X_CSRFTOKEN=csrf)
    assert answer.status_code == 201 and answer.json() == {"subscribed": True}
    answer = client.post(url, data, content_type="application/json", HTTP_X_CSRFTOKEN=csrf)
    assert answer.status_code == 201 and PushSubscription.objects.count() == 1
    row = PushSubscription.objects.get()
    assert (row.user, row.p256dh) == (users["bob"], browser.p256dh)
    assert client.post("/notifications/push/unsubscribe", {"endpoint": data["endpoint"]},
                       content_type="application/json",
                       HTTP_X_CSRFTOKEN=csrf).json() == {"unsubscribed": True}
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("keys", ["the same keys", "the thief's own keys"])
def test_another_members_endpoint_is_refused_and_stays_theirs(users, vapid, keys):
    """Issue #42, point 5: alice submitting bob's endpoint (with his browser's keys, or
    her own) gets a 409 saying why; bob's row keeps its member and keys; alice's own
    browser, subscribing afresh with a new endpoint, is saved for her."""
    bob, alice = Client(), Client()
    bob.force_login(users["bob"])
    alice.force_login(users["alice"])
    url = "/notifications/push/subscribe"
    browser = Browser()
    data = browser.subscription("https://push.example.com/send/bobs")
    assert bob.post(url, data, content_type="application/json").status_code == 201
    theirs = data if keys == "the same keys" else Browser().subscription(data["endpoint"])
    answer = alice.post(url, theirs, content_type="application/json")
    assert answer.status_code == 409
    assert answer.json() == {"error": "this push subscription belongs to another account: "
                                      "this browser must subscribe again for yours",
                             "taken": True}
    row = PushSubscription.objects.get()
    assert (row.user, row.p256dh, row.auth) == (users["bob"], browser.p256dh,
                                                data["keys"]["auth"])
    assert alice.post("/notifications/push/unsubscribe", {"endpoint": data["endpoint"]},
                      content_type="application/json").json() == {"unsubscribed": False}
    assert PushSubscription.objects.get().user == users["bob"]
    fresh = Browser().subscription("https://push.example.com/send/alices")
    assert alice.post(url, fresh, content_type="application/json").status_code == 201
    assert sorted(PushSubscription.objects.values_list("user__username", "endpoint")) == [
        ("alice", fresh["endpoint"]), ("bob", data["endpoint"])]


@pytest.mark.parametrize("body, words", [
    ("not json", "the body is not JSON"),
    ([], "a subscription is"),
    ({"endpoint": "http://push.example.com/x"}, "endpoint must be an https URL"),
    ({"endpoint": "https://push.example.com/" + "x" * 500}, "at most 500 characters"),
    ({"endpoint": "https://push.example.com/x"}, "keys must hold p256dh and auth"),
    ({"endpoint": "https://push.example.com/x", "keys": {"p256dh": "abc", "auth": "AAAA"}},
     "keys.p256dh must be 65 bytes"),
    ({"endpoint": "https://push.example.com/x",
      "keys": {"p256dh": b64url(b"\x04" + b"1" * 64), "auth": "!!"}},
     "keys.auth"),
    ({"endpoint": "https://push.example.com/x",
      "keys": {"p256dh": b64url(b"\x02" + b"1" * 64), "auth": b64url(b"a" * 16)}},
     "uncompressed P-256 point"),
])
def test_bad_input_is_a_400_saying_why_and_saves_nothing(users, vapid, body, words):
    client = Client()
    client.force_login(users["bob"])
    payload = body if isinstance(body, str) else json.dumps(body)
    answer = client.post("/notifications/push/subscribe", payload,
                         content_type="application/json")
    assert answer.status_code == 400 and words in answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_signed_out_visitors_are_sent_to_sign_in_and_the_worker_is_public(users, vapid):
    answer = Client().post("/notifications/push/subscribe", "{}",
                           content_type="application/json")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    worker = Client().get("/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"] == "text/javascript"
    text = worker.content.decode()
    assert 'addEventListener("push"' in text and "notificationclick" in text


def test_the_key_command_prints_a_pair_that_signs(settings, capsys):
    from django.core.management import call_command
    from py_vapid import Vapid

    call_command("webpush_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    key = Vapid.from_string(lines["WEBPUSH_VAPID_PRIVATE_KEY"])
    public = key.public_key.public_bytes(serialization.Encoding.X962,
                                         serialization.PublicFormat.UncompressedPoint)
    assert b64url(public) == lines["WEBPUSH_VAPID_PUBLIC_KEY"]
    headers = key.sign({"sub": "mailto:a@example.com", "aud": "https://push.example.com"})
    assert Vapid02.verify(headers["Authorization"])


def test_unusable_keys_fail_the_check(settings, vapid):
    from notifications.checks import webpush_settings

    assert webpush_settings() == []
    settings.WEBPUSH_CONTACT = "http://example.com"
    assert "WEBPUSH_CONTACT" in webpush_settings()[0].msg
    settings.WEBPUSH_CONTACT = "mailto:admin@example.com"
    settings.WEBPUSH_VAPID_PUBLIC_KEY = b64url(b"\x04" + b"1" * 64)
    assert "is not the public key" in webpush_settings()[0].msg
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    assert webpush_settings()[0].id == "notifications.E001"


def test_the_push_kinds_are_saved_from_the_settings_form(users, vapid):
    client = Client()
    client.force_login(users["bob"])
    answer = client.post("/notifications/settings", {"in_site": ["your_turn"],
                                                     "by_push": ["game_ended", "your_turn"]})
    assert answer.status_code == 302
    assert choices.of_member(users["bob"]).by_push == {"game_ended", "your_turn"}
    answer = client.post("/notifications/settings", {"by_push": ["everything"]})
    assert answer.status_code == 400
    assert choices.of_member(users["bob"]).by_push == {"game_ended", "your_turn"}
