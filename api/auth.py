"""The check every endpoint runs before anything else: the address's limit, the bearer
token (live, holding the endpoint's scope), then the token's limit. A session cookie is
not a key to the API (so no page's CSRF concerns reach it): only the token is.

`TokenAuth(scope)` is django-ninja's bearer scheme, so the OpenAPI description names the
scheme on every operation; its refusals are `ApiError`s that `api.site` answers as JSON."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer

from . import limits, tokens
from .models import AccessToken
from .scopes import Scope


@dataclass(frozen=True)
class Bearer:
    """Who asks: the token's row and its member (`request.auth` in an endpoint)."""

    token: AccessToken

    @property
    def user(self) -> Any:
        return self.token.user


class TokenAuth(HttpBearer):
    """`account`: a check of the token's member after the token's own (`api.bots`: the bot
    door takes BOT accounts only, the board door people only), raising its refusal."""

    def __init__(self, scope: Scope, account: Callable[[Any], None] | None = None) -> None:
        super().__init__()
        self.scope = scope
        self.account = account

    def __call__(self, request: HttpRequest) -> Bearer:
        limits.charge(limits.per_address(), limits.address_of(request))
        row = tokens.check(request.headers.get("Authorization"), self.scope)
        limits.charge(limits.per_token(), row.digest[:32])
        if self.account is not None:
            self.account(row.user)
        return Bearer(row)

    def authenticate(self, request: HttpRequest, token: str) -> Bearer:  # pragma: no cover
        raise NotImplementedError("TokenAuth reads the header itself (__call__)")


def bearer(request: HttpRequest) -> Bearer:
    """The asker, as `TokenAuth` left it on the request."""
    found = getattr(request, "auth", None)
    assert isinstance(found, Bearer)
    return found
