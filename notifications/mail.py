"""The notification emails, both opt-in: the daily digest (at most one a day per member:
the games waiting for them with their deadlines, and the notifications of the kinds they
chose that came since the last one) and the deadline alarm (once per decision, when 80 %
of a correspondence turn's time is used). Each carries a signed one-click unsubscribe link
(and the List-Unsubscribe headers, RFC 8058) that works without signing in.

Sending is claimed first with a conditional update (the digest's day stamp, the alarm's
unique row), so two beat runs at once send one mail.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts import emails
from games.models import Game
from games.tables.waiting import WaitingGame, waiting_games
from games.timing import clocks

from .models import DeadlineAlarm, Kind, Notification, NotificationSettings
from .notify import correspondence, game_url, with_whom

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
ALARM_AT = 0.8  # the share of a turn's time used when the alarm goes (as lichess)
EMAILS = ("digest", "alarm")


# --- unsubscribe links -------------------------------------------------------------------


def unsubscribe_token(user_id: int, what: str) -> str:
    return signing.dumps({"u": user_id, "e": what}, salt=UNSUBSCRIBE_SALT)


def read_token(token: str) -> tuple[int, str]:
    """The member and the email a link names; `signing.BadSignature` for a link that was
    not ours or was altered."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if not isinstance(data, dict) or data.get("e") not in EMAILS \
            or not isinstance(data.get("u"), int):
        raise signing.BadSignature("not an unsubscribe link")
    return data["u"], data["e"]


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def unsubscribe_url(user_id: int, what: str) -> str:
    return absolute(reverse("notifications:unsubscribe",
                            kwargs={"token": unsubscribe_token(user_id, what)}))


def _message(user: Any, what: str, subject: str, template: str,
             context: dict[str, Any]) -> EmailMessage:
    link = unsubscribe_url(user.pk, what)
    body = render_to_string(template, {**context, "user": user, "unsubscribe": link,
                                       "settings_url": absolute(reverse("notifications:settings"))})
    return EmailMessage(subject, body, to=[user.email], headers={
        "List-Unsubscribe": f"<{link}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    })


# --- the digest --------------------------------------------------------------------------


@dataclass(frozen=True)
class DigestGame:
    text: str
    url: str
    deadline: dt.datetime | None


def digest_of(user: Any, by_email: set[str], since: dt.datetime | None,
              after_id: int = 0) -> tuple[list[DigestGame], list[Notification]]:
    """What a member's digest lists: the games waiting for them (if they chose "your
    turn" by email) and their unread notifications of the other kinds they chose, made
    since the last digest and newer than the newest it listed (`after_id`): a
    notification is in one digest at most. (The waiting games are a state, not news:
    a game still waiting is listed again, with its deadline.)"""
    games: list[DigestGame] = []
    if Kind.YOUR_TURN in by_email:
        games = [_digest_game(w) for w in waiting_games(user) if w.waiting_for_you]
    others = Notification.objects.filter(user=user, read_at__isnull=True, id__gt=after_id,
                                         kind__in=sorted(by_email - {Kind.YOUR_TURN.value}))
    if since is not None:
        others = others.filter(created_at__gte=since)
    return games, list(others[:50])


def _digest_game(waiting: WaitingGame) -> DigestGame:
    """A waiting game's digest line, in `notify.with_whom`'s words from what
    `waiting_games` already read (its other seats' names), without the game's seats."""
    game = waiting.game
    whom = waiting.kind_name if waiting.opponents == "yourself" else \
        f"{waiting.kind_name} with {waiting.opponents}"
    return DigestGame(whom, absolute(game_url(game)), waiting.deadline)


def send_digests(at: dt.datetime | None = None) -> int:
    """Each opted-in member not sent one today (UTC) who has something to read gets the
    digest; how many were sent."""
    at = at or timezone.now()
    today = at.date()
    sent = 0
    rows = (NotificationSettings.objects.filter(digest=True).exclude(digest_sent_on=today)
            .filter(emails.mailable("user__"), user__is_active=True).select_related("user"))
    for row in rows:
        since = None if row.digest_sent_on is None else dt.datetime.combine(
            row.digest_sent_on, dt.time(), tzinfo=dt.UTC)
        games, others = digest_of(row.user, set(row.by_email), since, row.digest_last_id)
        if not games and not others:
            continue
        newest = max([row.digest_last_id, *(n.pk for n in others)])
        if not NotificationSettings.objects.filter(pk=row.pk).exclude(
                digest_sent_on=today).update(digest_sent_on=today, digest_last_id=newest):
            continue  # another run sent it
        try:
            _message(row.user, "digest", _digest_subject(games, others),
                     "notifications/email/digest.txt",
                     {"games": games, "others": others}).send()
        except Exception:
            log.exception("the digest to member %s was not sent", row.user_id)
            NotificationSettings.objects.filter(pk=row.pk).update(
                digest_sent_on=row.digest_sent_on,
                digest_last_id=row.digest_last_id)  # the next run tries again
            continue
        sent += 1
    return sent


def _digest_subject(games: list[DigestGame], others: list[Notification]) -> str:
    if games:
        return f"{len(games)} game{'s' if len(games) != 1 else ''} waiting for you"
    return f"{len(others)} new notification{'s' if len(others) != 1 else ''}"


# --- the deadline alarm ------------------------------------------------------------------


def send_alarms(at: dt.datetime | None = None) -> int:
    """Each opted-in member whose running correspondence clock has used 80 % of its time
    gets one alarm for that decision; how many were sent."""
    at = at or timezone.now()
    sent = 0
    users = set(NotificationSettings.objects.filter(alarm=True, user__is_active=True)
                .filter(emails.mailable("user__")).values_list("user_id", flat=True))
    if not users:
        return 0
    games = (Game.objects.filter(status=Game.Status.ACTIVE, flag_at__isnull=False,
                                 seats__user_id__in=users)
             .distinct().prefetch_related("seats__user"))
    for game in games:
        if not correspondence(game):
            continue
        game.set_seats(sorted(game.seats.all(), key=lambda s: s.index))
        for seat, deadline in _close_deadlines(game, at):
            holder = game.seat_list[seat]
            if holder.user_id in users and _claim_alarm(holder.user_id, game, deadline):
                _message(holder.user, "alarm", "Your time is running out",
                         "notifications/email/alarm.txt",
                         {"game": with_whom(game, holder.user_id),
                          "url": absolute(game_url(game)), "deadline": deadline}).send()
                sent += 1
    return sent


def _close_deadlines(game: Game, at: dt.datetime) -> list[tuple[int, dt.datetime]]:
    """The running seats that have used `ALARM_AT` of their turn's time, with their
    deadline."""
    game_clocks = clocks.of_game(game)
    if game_clocks is None:
        return []
    left = game_clocks.remaining(at)
    base = game_clocks.control.base_ms
    out = []
    for seat in game_clocks.running:
        remaining = left[seat]
        if remaining and base - remaining >= ALARM_AT * base:  # 0: the flag falls
            deadline = at + dt.timedelta(milliseconds=remaining)
            out.append((seat, deadline.replace(second=0, microsecond=0)))
    return out


def _claim_alarm(user_id: int, game: Game, deadline: dt.datetime) -> bool:
    """Note the alarm for this decision; False if it was sent already."""
    try:
        with transaction.atomic():
            DeadlineAlarm.objects.create(user_id=user_id, game=game, deadline=deadline)
    except IntegrityError:
        return False
    return True
