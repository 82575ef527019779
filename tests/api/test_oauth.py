"""OAuth 2 with PKCE (api/oauth.py, api/consent.py): an app registered in the admin gets a
member's token through the consent page, the code and its verifier; the token opens the
API with the scopes granted, the same refusals as a personal token's (a scope not granted,
revoked, expired), and the member revokes it on the tokens page. No code without a S256
challenge, no token without the right verifier, no implicit or password grant."""

from __future__ import annotations

import datetime as dt
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken as AppToken
from oauth2_provider.models import Grant

from api.models import RevokedAppToken
from api.oauth_admin import AppForm
from tests.api.oauth_flow import (
    app_token,
    authorize_url,
    code_of,
    consent,
    exchange,
    pkce,
    register_app,
)
from tests.api.support import PASSWORD, bearer_client
from tests.games.support import new_game

pytestmark = pytest.mark.django_db


def test_it_runs_the_whole_flow_and_the_token_opens_the_api(people):
    app = register_app()
    browser = Client()
    browser.force_login(people["marta"])
    pair = pkce()
    url = authorize_url(app, "read board:play", pair)
    page = browser.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Board Buddy" in text and "board:play" in text and "127.0.0.1:8765" in text
    # the form's answer goes on to the app: the page's CSP lets it (form-action)
    assert "form-action 'self' http://127.0.0.1:8765" in page["Content-Security-Policy"]
    back = code_of(consent(browser, url))
    assert back["state"] == ["s-42"]
    answer = exchange(app, back["code"][0], pair.verifier)
    assert answer.status_code == 200
    got = answer.json()
    assert got["access_token"].startswith("cgo_") and got["token_type"] == "Bearer"
    assert set(got["scope"].split()) == {"read", "board:play"}
    assert got["refresh_token"].startswith("cgr_")
    row = AppToken.objects.get()
    assert row.user == people["marta"] and row.token == ""  # only its SHA-256 is kept
    me = bearer_client(got["access_token"]).get("/api/user/marta")
    assert me.status_code == 200 and me.json()["username"] == "marta"


def test_the_code_is_refused_with_a_wrong_verifier_or_none(people):
    app = register_app()
    browser = Client()
    browser.force_login(people["marta"])
    pair = pkce()
    code = code_of(consent(browser, authorize_url(app, "read", pair)))["code"][0]
    wrong = exchange(app, code, pkce().verifier)
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
    missing = exchange(app, code, None)
    assert missing.status_code == 400
    assert not AppToken.objects.exists()


@pytest.mark.parametrize("pair,method", [(None, "S256"), (pkce(), "plain")])
def test_an_authorization_without_a_s256_challenge_is_refused(people, pair, method):
    app = register_app()
    browser = Client()
    browser.force_login(people["marta"])
    url = authorize_url(app, "read", pair, method=method)
    page = browser.get(url)
    if page.status_code == 200:  # "plain" is refused when the member agrees
        page = consent(browser, url)
    assert page.status_code == 302
    back = parse_qs(urlsplit(page["Location"]).query)
    assert back["error"] == ["invalid_request"] and "code" not in back
    assert not Grant.objects.exists()


def test_the_implicit_and_password_grants_are_refused(people):
    app = register_app()
    browser = Client()
    browser.force_login(people["marta"])
    implicit = browser.get(authorize_url(app, "read", pkce(), response_type="token"))
    assert implicit.status_code == 302 and "access_token" not in implicit["Location"]
    assert "error=" in implicit["Location"]
    password = Client().post("/oauth/token/", {
        "grant_type": "password", "username": "marta", "password": PASSWORD,
        "client_id": app.client_id})
    assert password.status_code in (400, 401) and "access_token" not in password.json()
    assert not AppToken.objects.exists()


def test_cancel_gives_the_app_nothing(people):
    app = register_app()
    browser = Client()
    browser.force_login(people["marta"])
    back = code_of(consent(browser, authorize_url(app, "read", pkce()), allow=False))
    assert back["error"] == ["access_denied"] and "code" not in back
    assert not Grant.objects.exists()


def test_a_scope_not_granted_is_missing_scope(people):
    token = app_token(people["marta"], "read")
    game = new_game(people["marta"], people["kofi"])
    answer = bearer_client(token).post(f"/api/board/game/{game.id}/decision",
                                       data='{"ply": 0, "token": "a"}',
                                       content_type="application/json")
    assert answer.status_code == 403
    assert answer.json()["code"] == "missing_scope"
    assert "granted read" in answer.json()["error"]


def test_revoked_on_the_tokens_page_is_revoked_token(people):
    token = app_token(people["marta"], "read")
    browser = Client()
    browser.force_login(people["marta"])
    page = browser.get("/accounts/tokens/")
    assert "Board Buddy" in page.content.decode()
    [listed] = page.context["apps"]
    assert listed.scopes == ["read"]
    other = Client()
    other.force_login(people["kofi"])  # not his to revoke: nothing changes
    other.post(f"/accounts/tokens/apps/{listed.app_id}/revoke")
    assert bearer_client(token).get("/api/user/marta").status_code == 200
    done = browser.post(f"/accounts/tokens/apps/{listed.app_id}/revoke")
    assert done.status_code == 302
    answer = bearer_client(token).get("/api/user/marta")
    assert answer.status_code == 401 and answer.json()["code"] == "revoked_token"
    assert answer["WWW-Authenticate"].startswith("Bearer")
    assert browser.get("/accounts/tokens/").context["apps"] == []


def test_revoked_by_the_app_itself_is_revoked_token(people):
    app = register_app()
    token = app_token(people["marta"], "read", app)
    answer = Client().post("/oauth/revoke_token/", {"token": token,
                                                     "client_id": app.client_id})
    assert answer.status_code == 200
    assert RevokedAppToken.objects.count() == 1
    refused = bearer_client(token).get("/api/user/marta")
    assert refused.status_code == 401 and refused.json()["code"] == "revoked_token"


def test_expired_unknown_and_malformed_app_tokens(people):
    token = app_token(people["marta"], "read")
    AppToken.objects.update(expires=timezone.now() - dt.timedelta(seconds=1))
    expired = bearer_client(token).get("/api/user/marta")
    assert expired.status_code == 401 and expired.json()["code"] == "expired_token"
    unknown = bearer_client("cgo_" + "A" * 43).get("/api/user/marta")
    assert unknown.json()["code"] == "unknown_token"
    malformed = bearer_client("cgo_short").get("/api/user/marta")
    assert malformed.json()["code"] == "malformed_token"


def test_a_deactivated_members_app_token_is_unknown(people):
    token = app_token(people["marta"], "read")
    people["marta"].is_active = False
    people["marta"].save()
    assert bearer_client(token).get("/api/user/kofi").json()["code"] == "unknown_token"


def test_a_signed_out_member_signs_in_and_comes_back_to_the_consent_page(people):
    app = register_app()
    url = authorize_url(app, "read", pkce())
    browser = Client()
    sent = browser.get(url)
    assert sent.status_code == 302
    login = urlsplit(sent["Location"])
    assert login.path == "/accounts/login/"
    back_to = parse_qs(login.query)["next"][0]
    assert back_to == url
    signed_in = browser.post("/accounts/login/", {"login": "marta", "password": PASSWORD,
                                                  "next": back_to})
    assert signed_in.status_code == 302 and signed_in["Location"] == url
    page = browser.get(signed_in["Location"])
    assert page.status_code == 200 and "Authorise “Board Buddy”?" in page.content.decode()


def test_an_unknown_app_or_redirect_is_an_error_page_not_a_redirect(people):
    app = register_app()
    browser = Client()
    browser.force_login(people["marta"])
    unknown = browser.get(authorize_url(app, "read", pkce()).replace(app.client_id, "nope"))
    assert unknown.status_code == 400 and "cannot be answered" in unknown.content.decode()
    elsewhere = browser.get(authorize_url(app, "read", pkce()).replace(
        "callback", "elsewhere"))
    assert elsewhere.status_code == 400 and "Location" not in elsewhere
    # a loopback redirect may come back on any port (RFC 8252, 7.3: the program picks one)
    other_port = browser.get(authorize_url(app, "read", pkce()).replace("8765", "9999"))
    assert other_port.status_code == 200


@pytest.mark.parametrize("uri,ok", [
    ("https://app.example/cb", True), ("http://127.0.0.1:8765/cb", True),
    ("http://localhost/cb", True), ("http://app.example/cb", False),
    ("javascript:alert(1)", False), ("com.example.app:/cb", False)])
def test_the_admin_registers_public_code_apps_with_safe_redirects(db, uri, ok):
    form = AppForm(data={"name": "An app", "redirect_uris": uri})
    assert form.is_valid() is ok
    if ok:
        app = form.save()
        assert app.client_type == "public"
        assert app.authorization_grant_type == "authorization-code"
