"""Web push (RFC 8030), opt-in per browser: the subscriptions a member's browsers made
(`subscribe`, `unsubscribe`), and sending one notification to them (`deliver`, the body of
the Celery task `notifications.send_push`, sent after the notification's transaction
commits). `pywebpush` does the protocol: the payload's encryption (RFC 8291, `aes128gcm`)
and the VAPID signature (RFC 8292) with the site's keys from the environment
(`WEBPUSH_VAPID_PRIVATE_KEY`, `WEBPUSH_VAPID_PUBLIC_KEY`, `WEBPUSH_CONTACT`); without both
keys push is not offered at all.

The payload says only what the notification's text says (public facts), its title and
the page to open: never anything hidden of a game. A push service answering 404 or 410
(the subscription is gone) deletes the subscription; any other failure is noted on it.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from .models import Kind, Notification, PushSubscription

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
}


class BadSubscription(ValueError):
    """A subscription the page sent that is not one: nothing is saved."""


def offered() -> bool:
    """Is web push offered on this site (both VAPID keys set)?"""
    return bool(settings.WEBPUSH_VAPID_PRIVATE_KEY and settings.WEBPUSH_VAPID_PUBLIC_KEY)


def public_key() -> str:
    """The key the browser subscribes with (`applicationServerKey`), base64url."""
    return str(settings.WEBPUSH_VAPID_PUBLIC_KEY)


# --- subscriptions -----------------------------------------------------------------------


def _b64url(value: Any, name: str, size: int) -> str:
    """`value` if it is base64url of `size` bytes (padding optional)."""
    if not isinstance(value, str) or not value or len(value) > 200:
        raise BadSubscription(f"keys.{name} must be a base64url string")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription(f"keys.{name} is not base64url") from None
    if len(raw) != size:
        raise BadSubscription(f"keys.{name} must be {size} bytes, not {len(raw)}")
    return value


def checked(data: Any) -> tuple[str, str, str]:
    """The endpoint and keys of a Push API subscription as `PushSubscription.toJSON()`
    gives it: `{"endpoint": "https://…", "keys": {"p256dh": …, "auth": …}}`."""
    if not isinstance(data, dict):
        raise BadSubscription('a subscription is {"endpoint": url, "keys": {"p256dh": '
                              'str, "auth": str}}')
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or len(endpoint) > 500:
        raise BadSubscription("endpoint must be a URL of at most 500 characters")
    parts = urlsplit(endpoint)
    if parts.scheme != "https" or not parts.hostname:
        raise BadSubscription("endpoint must be an https URL of a push service")
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise BadSubscription("keys must hold p256dh and auth")
    p256dh = _b64url(keys.get("p256dh"), "p256dh", 65)
    if base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))[0] != 4:
        raise BadSubscription("keys.p256dh must be an uncompressed P-256 point")
    return endpoint, p256dh, _b64url(keys.get("auth"), "auth", 16)


def subscribe(user: Any, data: Any) -> PushSubscription:
    """Save the browser's subscription for the member (a `BadSubscription` saves
    nothing). The same endpoint again updates its keys; another member's becomes this
    member's (one browser, another account signed in)."""
    if not offered():
        raise BadSubscription("web push is not offered on this site")
    endpoint, p256dh, auth = checked(data)
    row, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth,
                                     "last_failure": None, "failure": ""})
    return row


def unsubscribe(user: Any, data: Any) -> bool:
    """Forget the member's subscription with this endpoint; True if there was one."""
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    if not isinstance(endpoint, str) or not endpoint:
        raise BadSubscription('an unsubscription is {"endpoint": url}')
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def subscribed(user_ids: list[int]) -> set[int]:
    """The members among these with a subscribed browser."""
    return set(PushSubscription.objects.filter(user_id__in=user_ids)
               .values_list("user_id", flat=True))


# --- sending -----------------------------------------------------------------------------


def send_on_commit(rows: list[Notification]) -> None:
    """After the notifications' transaction commits, a task per notification sends it to
    its member's browsers (the caller chose the rows that are pushed)."""
    if not rows or not offered():
        return
    from .tasks import send_push  # the task module imports this one

    ids = [row.pk for row in rows]
    transaction.on_commit(lambda: [send_push.delay(pk) for pk in ids])


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
    from .choices import of_member_id  # choices imports this module

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
