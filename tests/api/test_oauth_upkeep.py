"""The OAuth 2 server's upkeep (api.consent, api.oauth, api.tasks): the RFC 8414 metadata
document at the site's root says what the server really does (its issuer is the `iss` the
consent's redirect carries), and the nightly task clears the toolkit's rows that can never
open anything again and the revoked checksums past their tokens' lifetime, leaving every
row that still can."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken as AppToken
from oauth2_provider.models import Grant, RefreshToken

from api import oauth, tasks
from api.models import RevokedAppToken
from api.scopes import ALL
from tests.api.oauth_flow import app_token, authorize_url, code_of, consent, pkce, register_app
from tests.api.support import bearer_client, member

METADATA = "/.well-known/oauth-authorization-server"


@pytest.mark.django_db
def test_the_metadata_document_says_what_the_server_does(people):
    answer = Client().get(METADATA)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    assert answer["Access-Control-Allow-Origin"] == "*"
    document = answer.json()
    origin = "http://testserver"
    assert document["issuer"] == origin
    assert {key: document[key] for key in ("authorization_endpoint", "token_endpoint",
                                           "revocation_endpoint")} == {
        "authorization_endpoint": f"{origin}/oauth/authorize/",
        "token_endpoint": f"{origin}/oauth/token/",
        "revocation_endpoint": f"{origin}/oauth/revoke_token/"}
    assert document["response_types_supported"] == ["code"]
    assert document["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert document["code_challenge_methods_supported"] == ["S256"]
    assert document["token_endpoint_auth_methods_supported"] == ["none"]
    assert document["revocation_endpoint_auth_methods_supported"] == ["none"]
    assert document["scopes_supported"] == sorted(scope.value for scope in ALL)
    assert document["authorization_response_iss_parameter_supported"] is True
    assert document["service_documentation"] == f"{origin}/api/"
    assert "introspection_endpoint" not in document and "registration_endpoint" not in document
    # RFC 9207: the consent's redirect names this very issuer
    browser = Client()
    browser.force_login(people["marta"])
    back = code_of(consent(browser, authorize_url(register_app(), "read", pkce())))
    assert back["iss"] == [document["issuer"]]
    # each endpoint it names is served there (a GET of the token endpoint is refused as
    # the toolkit refuses it, not a 404)
    assert Client().get("/oauth/token/").status_code != 404


def opens(token: str) -> str:
    answer = bearer_client(token).get("/api/user/marta")
    return "opens" if answer.status_code == 200 else answer.json()["code"]


def age(token: str, days: float) -> None:
    """As if the access token had expired `days` ago (its refresh token as it was)."""
    AppToken.objects.filter(token_checksum=oauth.checksum_of(token)).update(
        expires=timezone.now() - dt.timedelta(days=days))


@pytest.mark.django_db
def test_the_task_clears_only_what_can_never_open_anything_again(people):
    refresh_days = settings.OAUTH2_PROVIDER["REFRESH_TOKEN_EXPIRE_SECONDS"] / 86400
    access_days = settings.OAUTH2_PROVIDER["ACCESS_TOKEN_EXPIRE_SECONDS"] / 86400
    app = register_app()
    live, lapsed, dead = (app_token(people[name], app=app) for name in ("marta", "kofi",
                                                                         "ines"))
    age(lapsed, 1)  # expired yesterday: its refresh token may still renew it
    age(dead, refresh_days + 1)  # its refresh token's lifetime is over too
    revokers = (people["omar"], member("pia"))
    revoked_long_ago, revoked_lately = (app_token(user, app=app) for user in revokers)
    for user in revokers:  # the member revokes the app on their tokens page
        assert oauth.revoke_app(user, app.pk)
    RevokedAppToken.objects.filter(checksum=oauth.checksum_of(revoked_long_ago)).update(
        revoked_at=timezone.now() - dt.timedelta(days=access_days + 1))
    browser = Client()
    browser.force_login(people["marta"])
    code_of(consent(browser, authorize_url(app, "read", pkce())))  # a code never exchanged
    assert Grant.objects.update(expires=timezone.now() - dt.timedelta(minutes=1)) == 1
    before = {name: opens(token) for name, token in (
        ("live", live), ("lapsed", lapsed), ("dead", dead),
        ("revoked_long_ago", revoked_long_ago), ("revoked_lately", revoked_lately))}
    assert before == {"live": "opens", "lapsed": "expired_token", "dead": "expired_token",
                      "revoked_long_ago": "revoked_token", "revoked_lately": "revoked_token"}
    refresh_rows = RefreshToken.objects.count()

    assert tasks.clear_expired_tokens.name == settings.CELERY_BEAT_SCHEDULE[
        "api-clear-expired-tokens"]["task"]
    assert tasks.clear_expired_tokens() == 1  # the old revoked checksum

    after = {name: opens(token) for name, token in (
        ("live", live), ("lapsed", lapsed), ("dead", dead),
        ("revoked_long_ago", revoked_long_ago), ("revoked_lately", revoked_lately))}
    assert after == {"live": "opens", "lapsed": "expired_token", "dead": "unknown_token",
                     "revoked_long_ago": "unknown_token", "revoked_lately": "revoked_token"}
    assert not Grant.objects.exists()
    # the dead token's refresh token is gone; the revoked ones stay until their lifetime
    # ends (the toolkit's reuse protection needs them), the others are live
    assert RefreshToken.objects.count() == refresh_rows - 1
    assert not AppToken.objects.filter(token_checksum=oauth.checksum_of(dead)).exists()
    assert tasks.clear_expired_tokens() == 0  # nothing left to clear
