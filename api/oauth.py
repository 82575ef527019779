"""Third-party apps' OAuth 2 access tokens (django-oauth-toolkit's) as keys to the API:
their shape (`cgo_` and 43 URL-safe characters, refresh tokens `cgr_`; made here, stored by
the toolkit as their SHA-256 only), the site's scopes as the toolkit's (`SiteScopes`), the
bearer check (`check`: a token to its live row holding a scope, or the same refusal a
personal token gets), whether a stream's token is still live, the apps a member authorised
and revoking them. The toolkit deletes a revoked token's row; its checksum is kept
(`RevokedAppToken`) so that it is refused `revoked_token`, not `unknown_token`, until the
token would have expired anyway (`clear_expired`, the beat's: then it is forgotten, as an
expired token the toolkit cleared is, and both answer `unknown_token`)."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from oauth2_provider.models import AccessToken as AppToken
from oauth2_provider.models import RefreshToken, get_application_model
from oauth2_provider.models import clear_expired as toolkit_clear_expired
from oauth2_provider.scopes import BaseScopes
from oauth2_provider.settings import oauth2_settings

from .errors import ApiError, Code
from .models import RevokedAppToken
from .scopes import ALL, Scope

PREFIX = "cgo_"
REFRESH_PREFIX = "cgr_"
TOKEN_SHAPE = re.compile(r"cgo_[A-Za-z0-9_-]{43}")
DEFAULT_SCOPES = [Scope.READ.value]


def new_access_token(request: Any, refresh_token: bool = False) -> str:
    """The toolkit's ACCESS_TOKEN_GENERATOR: 32 random bytes, marked as an app's."""
    return PREFIX + secrets.token_urlsafe(32)


def new_refresh_token(request: Any, refresh_token: bool = False) -> str:
    return REFRESH_PREFIX + secrets.token_urlsafe(32)


class SiteScopes(BaseScopes):
    """The API's scopes (api.scopes) as the toolkit's: an app may ask for any of them."""

    def get_all_scopes(self) -> dict[str, str]:
        return {scope.value: scope.label for scope in ALL}

    def get_available_scopes(self, application: Any = None, request: Any = None,
                             *args: Any, **kwargs: Any) -> list[str]:
        return [scope.value for scope in ALL]

    def get_default_scopes(self, application: Any = None, request: Any = None,
                           *args: Any, **kwargs: Any) -> list[str]:
        return list(DEFAULT_SCOPES)


def carries(header: str | None) -> bool:
    """Does this `Authorization` header carry an app's token (rather than a personal one)?"""
    _, _, token = (header or "").partition(" ")
    return token.strip().startswith(PREFIX)


def checksum_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check(header: str, scope: Scope) -> AppToken:
    """The app token row a `Bearer cgo_…` header carries, if it is live and holds `scope`;
    else the refusal a personal token would get in its place."""
    kind, _, token = header.partition(" ")
    token = token.strip()
    if kind.lower() != "bearer" or not TOKEN_SHAPE.fullmatch(token):
        raise ApiError(Code.MALFORMED_TOKEN, "That is not an app token of this site: an "
                       f"app's token is '{PREFIX}' and 43 letters, digits, '-' or '_'.")
    checksum = checksum_of(token)
    row = AppToken.objects.select_related("user__player", "application").filter(
        token_checksum=checksum).first()  # the player row for the doors' check (api.bots)
    if row is None:
        if RevokedAppToken.objects.filter(checksum=checksum).exists():
            raise ApiError(Code.REVOKED_TOKEN, "This app's token was revoked.")
        raise ApiError(Code.UNKNOWN_TOKEN, "No such token.")
    if row.user is None or not row.user.is_active:
        raise ApiError(Code.UNKNOWN_TOKEN, "No such token.")
    if row.is_expired():
        raise ApiError(Code.EXPIRED_TOKEN, "This app's token expired on "
                       f"{row.expires:%Y-%m-%d %H:%M} UTC.")
    granted = row.scope.split()
    if scope.value not in granted:
        raise ApiError(Code.MISSING_SCOPE, f"This endpoint needs the '{scope.value}' "
                       f"scope; the app was granted {', '.join(granted) or 'none'}.")
    return row


def live(token_id: int) -> bool:
    """Is this app token still a key (not revoked, not expired, its member active)?"""
    row = AppToken.objects.select_related("user").filter(pk=token_id).first()
    return row is not None and row.user is not None and row.user.is_active \
        and not row.is_expired()


def forget(sender: Any, instance: AppToken, **kwargs: Any) -> None:
    """`post_delete` of an app token: the toolkit revoked it (the member, the app, a
    refresh, the app removed). Its checksum is kept unless it had expired anyway."""
    if instance.token_checksum and not instance.is_expired():
        RevokedAppToken.objects.get_or_create(checksum=instance.token_checksum)


@dataclass(frozen=True)
class Authorised:
    """An app the member let in: its live tokens' scopes and the first time."""

    app_id: int
    name: str
    scopes: list[str]
    since: Any
    expires: Any


def authorised(user: Any) -> list[Authorised]:
    """The apps holding a live token of the member's, by name."""
    found: dict[int, Authorised] = {}
    for row in AppToken.objects.select_related("application").filter(
            user=user, application__isnull=False, expires__gt=timezone.now()
    ).order_by("created"):
        app = row.application
        before = found.get(app.pk)
        scopes = set(row.scope.split()) | set(before.scopes if before else [])
        found[app.pk] = Authorised(
            app_id=app.pk, name=app.name or app.client_id,
            scopes=[s.value for s in ALL if s.value in scopes],
            since=before.since if before else row.created,
            expires=max(row.expires, before.expires) if before else row.expires)
    return sorted(found.values(), key=lambda a: a.name.lower())


def revoke_app(user: Any, app_id: int) -> bool:
    """Revoke every token the member gave this app (its access tokens and refresh tokens);
    False if it held none (nothing changed)."""
    app = get_application_model().objects.filter(pk=app_id).first()
    if app is None:
        return False
    with transaction.atomic():
        tokens = list(AppToken.objects.filter(user=user, application=app))
        refresh = list(RefreshToken.objects.filter(user=user, application=app,
                                                   revoked__isnull=True))
        for row in refresh:
            row.revoke()  # the toolkit's own: marks it, deletes its access token
        for token in tokens:
            if AppToken.objects.filter(pk=token.pk).exists():
                token.revoke()
    return bool(tokens or refresh)


def clear_expired() -> int:
    """The toolkit's `clear_expired` (its `cleartokens`: expired grants and access
    tokens, refresh tokens past REFRESH_TOKEN_EXPIRE_SECONDS, revoked ones once past it
    too, as its reuse protection needs them until then), then the revoked checksums older
    than an access token lives: their tokens would have expired by now. How many
    checksums were deleted."""
    toolkit_clear_expired()
    lifetime = dt.timedelta(seconds=oauth2_settings.ACCESS_TOKEN_EXPIRE_SECONDS)
    deleted, _ = RevokedAppToken.objects.filter(
        revoked_at__lt=timezone.now() - lifetime).delete()
    return deleted
