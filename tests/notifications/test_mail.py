"""The emails: the digest (at most one a day, only to opted-in members with something
waiting, the right games with their deadlines), the alarm (once per decision, at 80 % of a
correspondence turn's time), and the one-click unsubscribe link (no sign-in; a bad
signature refused and nothing changed)."""

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils import timezone

from notifications import choices, mail
from notifications.models import Notification, NotificationSettings
from tests.clocks.support import pass_time
from tests.notifications.support import correspondence_game, play

pytestmark = pytest.mark.django_db
DAY = 86_400


def opt_in(user, digest=True, alarm=False, by_email=("your_turn", "challenge")):
    choices.save(user, in_site=["your_turn"], by_email=by_email, digest=digest, alarm=alarm)


def started(users, time_control="3d"):
    """alice and bob have each moved once: alice's clock runs."""
    game = correspondence_game(users["alice"], users["bob"], time_control=time_control)
    play(game.id, users["alice"])
    play(game.id, users["bob"])
    return game


def link_in(body: str) -> str:
    return re.search(r"one click\): (\S+)", body)[1].removeprefix("http://localhost:8000")


def test_the_digest_lists_the_games_waiting_once_a_day(users, mailoutbox):
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    game = started(users)
    other = correspondence_game(carol, alice)  # carol to move: not waiting for alice
    opt_in(alice)
    opt_in(carol, digest=False)  # her game waits for her, but she did not opt in
    assert mail.send_digests() == 1
    [message] = mailoutbox
    assert message.to == [alice.email]
    assert message.subject == "1 game waiting for you"
    assert "Cargo Connect with bob: decide by" in message.body
    assert f"/g/{game.id}" in message.body and f"/g/{other.id}" not in message.body
    assert message.extra_headers["List-Unsubscribe"].startswith("<http://")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert mail.send_digests() == 0  # the same day
    assert mail.send_digests(timezone.now() + dt.timedelta(days=1)) == 1
    assert [m.to for m in mailoutbox] == [[alice.email], [alice.email]]
    assert bob.email not in {to for m in mailoutbox for to in m.to}


def test_no_digest_without_something_to_read_or_without_opting_in(users, mailoutbox):
    correspondence_game(users["bob"], users["alice"])  # bob to move
    opt_in(users["alice"])
    assert mail.send_digests() == 0
    assert NotificationSettings.objects.get(user=users["alice"]).digest_sent_on is None
    assert mailoutbox == []


def test_the_unsubscribe_link_works_without_signing_in(users, mailoutbox):
    started(users)
    opt_in(users["alice"])
    mail.send_digests()
    path = link_in(mailoutbox[0].body)
    response = Client().get(path)
    assert response.status_code == 200 and "Unsubscribed" in response.content.decode()
    assert NotificationSettings.objects.get(user=users["alice"]).digest is False
    opt_in(users["alice"])
    one_click = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert one_click.status_code == 200
    assert NotificationSettings.objects.get(user=users["alice"]).digest is False


def test_a_bad_signature_is_refused_and_changes_nothing(users):
    opt_in(users["alice"])
    token = mail.unsubscribe_token(users["alice"].pk, "digest")
    for bad in (token[:-2] + "xx", "nonsense", token.replace(":", ":x", 1)):
        response = Client().get(f"/notifications/unsubscribe/{bad}")
        assert response.status_code == 400
    assert NotificationSettings.objects.get(user=users["alice"]).digest is True


def test_the_alarm_goes_once_at_80_percent_of_the_turn(users, mailoutbox):
    alice, bob = users["alice"], users["bob"]
    opt_in(alice, digest=False, alarm=True)
    opt_in(bob, digest=False, alarm=True)
    game = started(users, time_control="1d")
    pass_time(game.id, 0.75 * DAY)
    assert mail.send_alarms() == 0
    pass_time(game.id, 0.06 * DAY)
    assert mail.send_alarms() == 1
    assert mail.send_alarms() == 0  # once per decision
    [message] = mailoutbox
    assert message.to == [alice.email]
    assert "Your time is running out in Cargo Connect with bob: decide by" in message.body
    assert "List-Unsubscribe" in message.extra_headers
    play(game.id, alice)  # bob's clock runs now: his own alarm later
    pass_time(game.id, 0.85 * DAY)
    assert mail.send_alarms() == 1
    assert mailoutbox[-1].to == [bob.email]


def test_a_notification_is_in_one_digest_only(users, mailoutbox):
    alice = users["alice"]
    opt_in(alice, by_email=("challenge", "rematch_offered"))
    first = Notification.objects.create(user=alice, kind="challenge", url="/g/x",
                                        text="Your challenge was accepted: first")
    now = timezone.now().replace(hour=12)
    assert mail.send_digests(now) == 1
    assert "first" in mailoutbox[-1].body
    # the next day it is still unread, and made on the day of the last digest: not again
    assert mail.send_digests(now + dt.timedelta(days=1)) == 0
    Notification.objects.create(user=alice, kind="rematch_offered", url="/g/y",
                                text="bob offers a rematch: second")
    assert mail.send_digests(now + dt.timedelta(days=2)) == 1
    assert "second" in mailoutbox[-1].body and "first" not in mailoutbox[-1].body
    assert NotificationSettings.objects.get(user=alice).digest_last_id > first.id
