"""A member's notification choices: read for many members at once (missing rows are the
defaults: every kind in the site and pushed, no email; push only once a browser is
subscribed), saved from the settings page."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from . import subscriptions
from .models import (
    ALL_KINDS,
    NotificationSettings,
    default_by_email,
    default_by_push,
    default_in_site,
)


@dataclass(frozen=True)
class Choices:
    in_site: frozenset[str]
    by_email: frozenset[str]
    digest: bool
    alarm: bool
    by_push: frozenset[str] = frozenset(default_by_push())
    push: bool = False  # a browser of theirs is subscribed (and the site offers push)

    def wants(self, kind: str) -> bool:
        """Is a notification of `kind` kept for this member (shown, for the digest, or
        pushed)?"""
        return kind in self.in_site or (self.digest and kind in self.by_email) or \
            self.pushes(kind)

    def pushes(self, kind: str) -> bool:
        """Is a notification of `kind` pushed to the member's browsers?"""
        return self.push and kind in self.by_push


DEFAULT = Choices(frozenset(default_in_site()), frozenset(default_by_email()), False, False)


def _of_row(row: NotificationSettings) -> Choices:
    return Choices(frozenset(row.in_site), frozenset(row.by_email), row.digest, row.alarm,
                   frozenset(row.by_push))


def of_members(user_ids: Iterable[int]) -> dict[int, Choices]:
    """Each member's choices, in one query (two when the site offers push)."""
    ids = set(user_ids)
    rows = {r.user_id: _of_row(r) for r in NotificationSettings.objects.filter(user_id__in=ids)}
    pushed = subscriptions.subscribed(sorted(ids)) if subscriptions.offered() else set()
    return {uid: replace(rows.get(uid, DEFAULT), push=uid in pushed) for uid in ids}


def of_member(user: Any) -> Choices:
    return of_member_id(user.pk)


def of_member_id(user_id: int) -> Choices:
    return of_members([user_id])[user_id]


def save(user: Any, *, in_site: Iterable[str], by_email: Iterable[str], digest: bool,
         alarm: bool, by_push: Iterable[str] | None = None) -> Choices:
    """Save the member's choices (`by_push` None: kept as it was); an unknown kind is a
    ValueError and nothing changes."""
    site, email = sorted(set(in_site)), sorted(set(by_email))
    pushed = None if by_push is None else sorted(set(by_push))
    unknown = sorted((set(site) | set(email) | set(pushed or ())) - set(ALL_KINDS))
    if unknown:
        raise ValueError(f"unknown notification kind(s): {', '.join(unknown)}")
    fields: dict[str, Any] = {"in_site": site, "by_email": email, "digest": digest,
                              "alarm": alarm}
    if pushed is not None:
        fields["by_push"] = pushed
    row, _ = NotificationSettings.objects.update_or_create(user=user, defaults=fields)
    return _of_row(row)


def unsubscribe(user_id: int, what: str) -> bool:
    """Turn off one email (`digest` or `alarm`) for a member; True if it was on."""
    if what not in ("digest", "alarm"):
        raise ValueError(f"nothing to unsubscribe from called {what!r}")
    # no row: the member never turned an email on (or is gone); nothing to turn off
    return bool(NotificationSettings.objects.filter(user_id=user_id, **{what: True})
                .update(**{what: False}))
