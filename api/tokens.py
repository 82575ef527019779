"""Personal access tokens: made (the token shown once; its SHA-256 digest stored), listed,
revoked, and checked (`check`: a bearer's token to its row, or the refusal that says why).

A token is `cgp_` and 43 URL-safe characters (32 random bytes): guessing one is hopeless,
so a plain SHA-256 digest is enough to store it by (no salt, no slow hash: the digest is
also how a request finds the row, in one indexed query)."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .errors import ApiError, Code
from .models import AccessToken
from .scopes import Scope

PREFIX = "cgp_"
TOKEN_SHAPE = re.compile(r"cgp_[A-Za-z0-9_-]{43}")
MAX_ACTIVE = 20  # a member's live (unrevoked, unexpired) tokens at once
LIFETIMES = {"30": dt.timedelta(days=30), "90": dt.timedelta(days=90),
             "365": dt.timedelta(days=365), "never": None}
USED_EVERY = dt.timedelta(minutes=1)  # `last_used_at` is written at most this often


class TokenRefused(Exception):
    """A token the member may not make (too many, a bad name, no scope); nothing made."""


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Made:
    row: AccessToken
    token: str  # the only time it is seen


def create(user: Any, name: str, scopes: list[Scope], lifetime: dt.timedelta | None
           ) -> Made:
    """A new token for `user` with these scopes, expiring after `lifetime` (None: never)."""
    name = name.strip()
    if not name or len(name) > 60:
        raise TokenRefused("Give the token a name of 1 to 60 characters.")
    if not scopes:
        raise TokenRefused("Choose at least one scope.")
    with transaction.atomic():
        # the member's row locked: two forms sent at once cannot both pass the count
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        live = active(user).count()
        if live >= MAX_ACTIVE:
            raise TokenRefused(f"You have {live} tokens: revoke one before making another "
                               f"(at most {MAX_ACTIVE}).")
        token = PREFIX + secrets.token_urlsafe(32)
        now = timezone.now()
        row = AccessToken.objects.create(
            user=user, name=name, prefix=token[:len(PREFIX) + 4], digest=digest_of(token),
            scopes=[s.value for s in scopes], created_at=now,
            expires_at=now + lifetime if lifetime is not None else None)
    return Made(row, token)


def active(user: Any) -> Any:
    now = timezone.now()
    return AccessToken.objects.filter(user=user, revoked_at__isnull=True).exclude(
        expires_at__lte=now)


def of_member(user: Any) -> list[AccessToken]:
    """Every token of the member, newest first, revoked and expired ones included."""
    return list(AccessToken.objects.filter(user=user))


def revoke(user: Any, token_id: int) -> bool:
    """Revoke one of the member's own tokens; False if it is not theirs or was revoked
    already (nothing changed)."""
    return AccessToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True
                                      ).update(revoked_at=timezone.now()) == 1


def live(token_id: int) -> bool:
    """Is this token still a key (not revoked, not expired, its member active)?"""
    row = AccessToken.objects.select_related("user").filter(pk=token_id).first()
    return row is not None and row.user.is_active and not row.revoked \
        and not row.expired(timezone.now())


def check(header: str | None, scope: Scope) -> AccessToken:
    """The token row an `Authorization` header carries, if it is live and holds `scope`;
    else the refusal (`ApiError`) that says which of these it is not."""
    if not header:
        raise ApiError(Code.NO_TOKEN, "This endpoint needs a personal access token: send "
                       "'Authorization: Bearer <token>' (make one at /api/tokens).")
    kind, _, token = header.partition(" ")
    token = token.strip()
    if kind.lower() != "bearer" or not token:
        raise ApiError(Code.MALFORMED_TOKEN, "The Authorization header must be "
                       "'Bearer <token>'.")
    if not TOKEN_SHAPE.fullmatch(token):
        raise ApiError(Code.MALFORMED_TOKEN, "That is not a token of this site: a token is "
                       f"'{PREFIX}' and 43 letters, digits, '-' or '_'.")
    # the member's player row with it: the doors' BOT check reads it (api.bots)
    row = AccessToken.objects.select_related("user__player").filter(
        digest=digest_of(token)).first()
    if row is None or not row.user.is_active:
        raise ApiError(Code.UNKNOWN_TOKEN, "No such token.")
    now = timezone.now()
    if row.revoked:
        raise ApiError(Code.REVOKED_TOKEN, "This token was revoked.")
    if row.expired(now):
        raise ApiError(Code.EXPIRED_TOKEN, "This token expired on "
                       f"{row.expires_at:%Y-%m-%d %H:%M} UTC.")
    if scope.value not in row.scopes:
        raise ApiError(Code.MISSING_SCOPE, f"This endpoint needs the '{scope.value}' "
                       f"scope; the token has {', '.join(row.scopes) or 'none'}.")
    if row.last_used_at is None or now - row.last_used_at >= USED_EVERY:
        AccessToken.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
    return row
