"""What a member reads: the bell's unread count, the list page (which marks what it shows
read), and the catch-up a page asks for after its socket comes back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from .models import Notification

SHOWN = 50  # the list page's length


@dataclass(frozen=True)
class Item:
    id: int
    kind: str
    text: str
    url: str
    created_at: Any
    new: bool  # unread until this page showed it


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, in_site=True,
                                       read_at__isnull=True).count()


def open_list(user: Any) -> list[Item]:
    """The member's latest notifications, newest first; the unread ones among them are
    read from now on (the page shows them as new this once)."""
    rows = list(Notification.objects.filter(user=user, in_site=True)[:SHOWN])
    items = [Item(r.pk, r.kind, r.text, r.url, r.created_at, r.read_at is None) for r in rows]
    new = [i.id for i in items if i.new]
    if new:
        Notification.objects.filter(id__in=new, read_at__isnull=True).update(
            read_at=timezone.now())
    return items


def mark_read(user: Any, ids: list[int]) -> int:
    """Mark the member's own notifications `ids` read (others' are left alone); how many
    were unread."""
    return Notification.objects.filter(user=user, id__in=ids, read_at__isnull=True).update(
        read_at=timezone.now())


def status(user: Any) -> dict[str, int]:
    """The catch-up of a page whose socket came back: the unread count and the last id."""
    last = (Notification.objects.filter(user=user, in_site=True)
            .values_list("id", flat=True).first())
    return {"unread": unread_count(user.pk), "last": last or 0}
