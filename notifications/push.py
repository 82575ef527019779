"""Web push (RFC 8030): sending one notification to the browsers its member subscribed
(notifications.subscriptions) — `deliver`, the body of the Celery task
`notifications.send_push`, sent by name after the notification's transaction commits.
`pywebpush` does the protocol: the payload's encryption (RFC 8291, `aes128gcm`) and the
VAPID signature (RFC 8292) with the site's keys from the environment
(`WEBPUSH_VAPID_PRIVATE_KEY`, `WEBPUSH_VAPID_PUBLIC_KEY`, `WEBPUSH_CONTACT`); without both
keys push is not offered at all.

The payload says only what the notification's text says (public facts), its title and
the page to open: never anything hidden of a game. A push service answering 404 or 410
(the subscription is gone) deletes the subscription; any other failure is noted on it.
"""

from __future__ import annotations

import json
import logging

import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from common.queue import enqueue

from .choices import of_member_id
from .models import Kind, Notification, PushSubscription
from .subscriptions import offered

log = logging.getLogger(__name__)

TTL = 24 * 3600  # seconds a push service keeps a push for a browser that is offline
TIMEOUT = 10  # seconds for one push service's answer
GONE = (404, 410)  # the subscription expired or was withdrawn: forget it

TITLES = {
    Kind.YOUR_TURN: "Your turn",
    Kind.CHALLENGE: "Challenge accepted",
    Kind.TABLE_INVITE: "Someone joined your table",
    Kind.GAME_ENDED: "Game over",
    Kind.REMATCH_OFFERED: "Rematch offered",
    Kind.TOURNAMENT_ROUND: "Tournament round",
    Kind.CHALLENGED: "A challenge to you",
}


# --- sending -----------------------------------------------------------------------------


def send_on_commit(rows: list[Notification]) -> None:
    """After the notifications' transaction commits, a task per notification sends it to
    its member's browsers (the caller chose the rows that are pushed)."""
    if not rows or not offered():
        return
    ids = [row.pk for row in rows]

    def send() -> None:
        for pk in ids:
            enqueue("notifications.send_push", pk)

    transaction.on_commit(send)


def payload(row: Notification) -> dict[str, str]:
    """What the browser is told: a title, the notification's text (public facts only)
    and the page to open; `tag` makes a newer push of a game replace the older one."""
    return {"title": TITLES.get(Kind(row.kind), "Cargo Connect"), "body": row.text,
            "url": row.url or "/notifications/",
            "tag": f"game-{row.game_id}" if row.game_id else f"notification-{row.pk}"}


def deliver(notification_id: int) -> int:
    """Push the notification to each browser its member subscribed, if it is still
    unread and they still want its kind pushed; how many push services took it."""
    if not offered():
        return 0
    row = Notification.objects.filter(pk=notification_id, read_at__isnull=True).first()
    if row is None:
        return 0
    if row.kind not in of_member_id(row.user_id).by_push:
        return 0
    data = json.dumps(payload(row))
    key = Vapid.from_string(settings.WEBPUSH_VAPID_PRIVATE_KEY)
    return sum(_push(sub, data, key) for sub in PushSubscription.objects.filter(
        user_id=row.user_id))


def _push(sub: PushSubscription, data: str, key: Vapid) -> bool:
    """One push to one browser: True if its push service took it."""
    info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
    try:
        webpush(subscription_info=info, data=data, vapid_private_key=key,
                vapid_claims={"sub": settings.WEBPUSH_CONTACT}, ttl=TTL, timeout=TIMEOUT,
                headers={"Urgency": "normal"})
    except WebPushException as e:
        if e.status_code in GONE:
            PushSubscription.objects.filter(pk=sub.pk).delete()
            log.info("push subscription %s is gone (%s): deleted", sub.pk, e.status_code)
            return False
        _failed(sub, f"HTTP {e.status_code}" if e.status_code else str(e.message))
        return False
    except requests.RequestException as e:
        _failed(sub, type(e).__name__)
        return False
    PushSubscription.objects.filter(pk=sub.pk).update(last_success=timezone.now())
    return True


def _failed(sub: PushSubscription, why: str) -> None:
    log.warning("push to subscription %s failed: %s", sub.pk, why)
    PushSubscription.objects.filter(pk=sub.pk).update(last_failure=timezone.now(),
                                                      failure=why[:200])
