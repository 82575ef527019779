"""Whose an email address is (issue #42, point 4; docs/accounts.md, "Email addresses").

An address is a member's once they confirm it (the link sent to it proves the mailbox), not
when they type it. Until then it is a *claim*: the account works (sign-in by password is not
held back, accounts/forms.py), but the claim keeps nobody else out.

- `taken(email)`: whether some member has confirmed the address, or holds it without ever
  having claimed it through sign-up (an account the operator made, in the admin or with
  `createsuperuser`, has the address on the user and no EmailAddress row: the operator's
  word stands for the confirmation). Only then is it taken: a sign-up with it makes no
  account, and the address's owner gets a notice instead (the answer on the page is the
  same either way: allauth's enumeration prevention).
- A sign-up with an address that others only claim makes the account, with its own claim,
  and sends the link; a password reset to the address reaches every account claiming it
  (the mail goes to the address, so only its owner reads it), each mail saying whether
  that account confirmed it.
- `mailable(prefix)`: the notification emails (digest, alarms) go only to an address the
  member may be mailed at: confirmed, or set by the operator; not to an unconfirmed claim,
  which may be a squatter's (they would mail the address's owner every day).
- `release_claims(address)`: when a member confirms an address, every other account's
  unconfirmed claim to it is dropped (its EmailAddress row, and the user's `email` if it
  is that address). Those accounts stay, with no address; their owners can add one.
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, Q


def taken(email: str) -> bool:
    """Is the address a member's (compared without regard to case): confirmed, or set by
    the operator on an account that never claimed it through sign-up?"""
    if EmailAddress.objects.filter(email__iexact=email, verified=True).exists():
        return True
    claimed = EmailAddress.objects.filter(email__iexact=email).values("user_id")
    return get_user_model().objects.filter(email__iexact=email).exclude(pk__in=claimed) \
        .exists()


def confirmed_by(user: Any, email: str) -> bool:
    """Has this member confirmed this address?"""
    return EmailAddress.objects.filter(user_id=user.pk, email__iexact=email,
                                       verified=True).exists()


def unconfirmed(user: Any) -> bool:
    """Is the member's address only a claim (they gave it at sign-up, not confirmed)?"""
    return bool(user.email) and EmailAddress.objects.filter(
        user_id=user.pk, email__iexact=user.email, verified=False).exists()


def mailable(prefix: str = "") -> Q:
    """A filter on users (through `prefix`, e.g. "user__") to those with an address the
    site may mail: set, and not an unconfirmed claim."""
    claim = EmailAddress.objects.filter(user_id=OuterRef(f"{prefix}pk"),
                                        email__iexact=OuterRef(f"{prefix}email"),
                                        verified=False)
    return ~Q(**{f"{prefix}email": ""}) & Q(~Exists(claim))


def release_claims(address: EmailAddress) -> int:
    """Drop every other account's unconfirmed claim to the address just confirmed; how
    many accounts lost one."""
    with transaction.atomic():
        others = EmailAddress.objects.filter(email__iexact=address.email, verified=False) \
            .exclude(user_id=address.user_id)
        losers = set(others.values_list("user_id", flat=True))
        others.delete()
        get_user_model().objects.filter(pk__in=losers, email__iexact=address.email) \
            .update(email="")
    return len(losers)
