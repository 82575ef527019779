"""The check every endpoint runs before anything else: the address's limit, the bearer
token (live, holding the endpoint's scope), then the token's limit. The token is a
personal one (`api.tokens`) or an app's OAuth 2 token (`api.oauth`, `cgo_…`): the same
scopes, refusals and limits. A session cookie is not a key to the API (so no page's CSRF
concerns reach it): only the token is.

`TokenAuth(scope)` is django-ninja's bearer scheme, so the OpenAPI description names the
scheme on every operation; its refusals are `ApiError`s that `api.site` answers as JSON."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer

from . import limits, oauth, tokens
from .models import AccessToken
from .scopes import Scope


@dataclass(frozen=True)
class Bearer:
    """Who asks (`request.auth` in an endpoint): the member and the key they sent, a
    personal token's row (`token`) or an app's OAuth 2 token's (`app_token`)."""

    user: Any
    key: str  # "token:<id>" or "app:<id>": what the streams' slots and checks name
    token: AccessToken | None = None
    app_token: oauth.AppToken | None = None


def still_live(key: str) -> bool:
    """Is the key a `Bearer` named still good (not revoked or expired, its member active)?"""
    kind, _, number = key.partition(":")
    return oauth.live(int(number)) if kind == "app" else tokens.live(int(number))


class TokenAuth(HttpBearer):
    """`account`: a check of the token's member after the token's own (`api.bots`: the bot
    door takes BOT accounts only, the board door people only), raising its refusal."""

    def __init__(self, scope: Scope, account: Callable[[Any], None] | None = None) -> None:
        super().__init__()
        self.scope = scope
        self.account = account

    def __call__(self, request: HttpRequest) -> Bearer:
        limits.charge(limits.per_address(), limits.address_of(request))
        header = request.headers.get("Authorization")
        if oauth.carries(header):
            app_token = oauth.check(str(header), self.scope)
            limits.charge(limits.per_token(), app_token.token_checksum[:32])
            asker = Bearer(app_token.user, f"app:{app_token.pk}", app_token=app_token)
        else:
            row = tokens.check(header, self.scope)
            limits.charge(limits.per_token(), row.digest[:32])
            asker = Bearer(row.user, f"token:{row.pk}", token=row)
        if self.account is not None:
            self.account(asker.user)
        return asker

    def authenticate(self, request: HttpRequest, token: str) -> Bearer:  # pragma: no cover
        raise NotImplementedError("TokenAuth reads the header itself (__call__)")


def bearer(request: HttpRequest) -> Bearer:
    """The asker, as `TokenAuth` left it on the request."""
    found = getattr(request, "auth", None)
    assert isinstance(found, Bearer)
    return found
