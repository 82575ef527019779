"""A member's notification choices: read for many members at once (missing rows are the
defaults: every kind in the site, no email), saved from the settings page."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .models import ALL_KINDS, NotificationSettings, default_by_email, default_in_site


@dataclass(frozen=True)
class Choices:
    in_site: frozenset[str]
    by_email: frozenset[str]
    digest: bool
    alarm: bool

    def wants(self, kind: str) -> bool:
        """Is a notification of `kind` kept for this member (shown, or for the digest)?"""
        return kind in self.in_site or (self.digest and kind in self.by_email)


DEFAULT = Choices(frozenset(default_in_site()), frozenset(default_by_email()), False, False)


def _of_row(row: NotificationSettings) -> Choices:
    return Choices(frozenset(row.in_site), frozenset(row.by_email), row.digest, row.alarm)


def of_members(user_ids: Iterable[int]) -> dict[int, Choices]:
    """Each member's choices, in one query."""
    ids = set(user_ids)
    rows = {r.user_id: _of_row(r) for r in NotificationSettings.objects.filter(user_id__in=ids)}
    return {uid: rows.get(uid, DEFAULT) for uid in ids}


def of_member(user: Any) -> Choices:
    return of_members([user.pk])[user.pk]


def save(user: Any, *, in_site: Iterable[str], by_email: Iterable[str], digest: bool,
         alarm: bool) -> Choices:
    """Save the member's choices; an unknown kind is a ValueError and nothing changes."""
    site, email = sorted(set(in_site)), sorted(set(by_email))
    unknown = sorted((set(site) | set(email)) - set(ALL_KINDS))
    if unknown:
        raise ValueError(f"unknown notification kind(s): {', '.join(unknown)}")
    row, _ = NotificationSettings.objects.update_or_create(
        user=user, defaults={"in_site": site, "by_email": email, "digest": digest,
                             "alarm": alarm})
    return _of_row(row)


def unsubscribe(user_id: int, what: str) -> bool:
    """Turn off one email (`digest` or `alarm`) for a member; True if it was on."""
    if what not in ("digest", "alarm"):
        raise ValueError(f"nothing to unsubscribe from called {what!r}")
    # no row: the member never turned an email on (or is gone); nothing to turn off
    return bool(NotificationSettings.objects.filter(user_id=user_id, **{what: True})
                .update(**{what: False}))
