"""The browsers a member subscribed to web push (RFC 8030), opt-in per browser: whether
the site offers push at all (both VAPID keys set), the key a browser subscribes with, a
subscription checked and saved (`subscribe`), withdrawn (`unsubscribe`), and who has one
(`subscribed`). Sending a notification to them is notifications.push.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

from .models import PushSubscription


class BadSubscription(ValueError):
    """A subscription the page sent that is not one: nothing is saved."""


class SubscriptionTaken(BadSubscription):
    """The endpoint is another member's subscription: it stays theirs and nothing is
    saved (the view answers 409; the settings page then asks its browser for a new
    subscription, whose endpoint nobody else holds)."""


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
    nothing). The same endpoint again from the same member updates its keys. An endpoint
    another member subscribed is refused (`SubscriptionTaken`) and stays theirs: a
    request never moves one member's subscription to another (docs/notifications.md)."""
    if not offered():
        raise BadSubscription("web push is not offered on this site")
    endpoint, p256dh, auth = checked(data)
    with transaction.atomic():
        row = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if row is not None and row.user_id != user.pk:
            raise SubscriptionTaken(
                "this push subscription belongs to another account: this browser must "
                "subscribe again for yours")
        if row is None:
            row = PushSubscription(user=user, endpoint=endpoint)
        row.p256dh, row.auth, row.last_failure, row.failure = p256dh, auth, None, ""
        row.save()
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
