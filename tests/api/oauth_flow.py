"""The OAuth 2 authorization-code flow with PKCE as a third-party app runs it, through
Django's test client: an app registered through the admin's form, the member's browser at
the consent page, the app's exchange of the code and its verifier for a token."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from django.test import Client

REDIRECT = "http://127.0.0.1:8765/callback"


def register_app(name: str = "Board Buddy", redirect: str = REDIRECT) -> Any:
    """An app as an admin registers it (api.oauth_admin.AppForm)."""
    from api.oauth_admin import AppForm

    form = AppForm(data={"name": name, "redirect_uris": redirect,
                         "skip_authorization": False})
    assert form.is_valid(), form.errors
    return form.save()


@dataclass(frozen=True)
class Pkce:
    verifier: str
    challenge: str


def pkce() -> Pkce:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return Pkce(verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode())


def authorize_url(app: Any, scopes: str, pair: Pkce | None, state: str = "s-42",
                  method: str = "S256", response_type: str = "code",
                  redirect: str = REDIRECT) -> str:
    query = {"response_type": response_type, "client_id": app.client_id,
             "redirect_uri": redirect, "scope": scopes, "state": state}
    if pair is not None:
        query |= {"code_challenge": pair.challenge, "code_challenge_method": method}
    return "/oauth/authorize/?" + urlencode(query)


def consent(browser: Client, url: str, allow: bool = True) -> Any:
    """The consent page read, then its form sent back as the member's button sends it."""
    page = browser.get(url)
    assert page.status_code == 200, page.content[:500]
    form = page.context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    if allow:
        data["allow"] = "on"
    return browser.post("/oauth/authorize/", data)


def code_of(answer: Any) -> dict[str, list[str]]:
    """The query the consent's redirect carries back to the app."""
    assert answer.status_code == 302, answer.content[:500]
    target = urlsplit(answer["Location"])
    assert f"{target.scheme}://{target.netloc}{target.path}" == REDIRECT
    return parse_qs(target.query)


def exchange(app: Any, code: str, verifier: str | None) -> Any:
    data = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
            "client_id": app.client_id}
    if verifier is not None:
        data["code_verifier"] = verifier
    return Client().post("/oauth/token/", data)


def app_token(user: Any, scopes: str = "read", app: Any = None) -> str:
    """A token the member gave an app (registered here unless given), through the flow."""
    app = app or register_app()
    browser = Client()
    browser.force_login(user)
    pair = pkce()
    code = code_of(consent(browser, authorize_url(app, scopes, pair)))["code"][0]
    answer = exchange(app, code, pair.verifier)
    assert answer.status_code == 200, answer.content
    return str(answer.json()["access_token"])
