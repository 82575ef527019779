"""Personal access tokens (docs/api.md, "Tokens"): stored as a digest and shown once, made
and revoked on the settings page, and every way a token can be refused (none, malformed,
unknown, revoked, expired, a member deactivated, the wrong scope), each a JSON error with
its status that changes nothing; limits per token and per address answer 429 with
Retry-After."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from api import tokens
from api.models import AccessToken
from api.scopes import Scope
from tests.api.support import bearer_client, token_for

URL = "/api/user/marta"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_only_the_digest_is_stored_and_the_token_is_shown_once(people):
    client = signed_in(people["marta"])
    answer = client.post(reverse("api-tokens"), {"name": "my script", "scopes": ["read"],
                                                  "lifetime": "30"})
    assert answer.status_code == 200
    shown = answer.content.decode()
    row = AccessToken.objects.get(user=people["marta"])
    token = next(word for word in shown.replace("<", " ").replace(">", " ").split()
                 if word.startswith("cgp_") and len(word) == 47)
    assert row.digest == hashlib.sha256(token.encode()).hexdigest()
    assert token not in {row.name, row.prefix, str(row.scopes)}
    assert row.scopes == ["read"]
    assert dt.timedelta(days=29) < row.expires_at - timezone.now() <= dt.timedelta(days=30)
    again = client.get(reverse("api-tokens")).content.decode()
    assert token not in again and row.prefix in again
    assert bearer_client(token).get(URL).status_code == 200


def test_the_settings_page_refuses_a_token_without_a_scope_or_a_name(people):
    client = signed_in(people["marta"])
    for data in ({"name": "x", "lifetime": "30"}, {"name": " ", "scopes": ["read"],
                                                    "lifetime": "30"},
                 {"name": "x", "scopes": ["write-everything"], "lifetime": "30"},
                 {"name": "x", "scopes": ["read"], "lifetime": "forever"}):
        assert client.post(reverse("api-tokens"), data).status_code == 400
    assert not AccessToken.objects.exists()


def test_the_settings_page_is_members_only_and_in_both_themes(people):
    assert Client().get(reverse("api-tokens")).status_code == 302
    client = signed_in(people["marta"])
    for theme in ("light", "dark"):
        client.cookies["theme"] = theme
        page = client.get(reverse("api-tokens")).content.decode()
        assert f'data-theme="{theme}"' in page and 'name="viewport"' in page
        assert "css/api.css" in page


def test_revoking_is_the_members_own_and_the_token_stops_at_once(people):
    token = token_for(people["marta"])
    row = AccessToken.objects.get(user=people["marta"])
    kofi = signed_in(people["kofi"])
    kofi.post(reverse("api-token-revoke", kwargs={"token_id": row.pk}))
    assert bearer_client(token).get(URL).status_code == 200  # not kofi's to revoke
    signed_in(people["marta"]).post(reverse("api-token-revoke", kwargs={"token_id": row.pk}))
    answer = bearer_client(token).get(URL)
    assert answer.status_code == 401
    assert answer.json()["code"] == "revoked_token"
    assert answer["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(("header", "code"), [
    (None, "no_token"),
    ("Basic bWFydGE6cGFzcw==", "malformed_token"),
    ("Bearer", "malformed_token"),
    ("Bearer not-a-token", "malformed_token"),
    ("Bearer cgp_" + "A" * 42, "malformed_token"),
    ("Bearer cgp_" + "A" * 43, "unknown_token"),
])
def test_a_missing_malformed_or_unknown_token_is_401_with_its_code(people, header, code):
    token_for(people["marta"])
    client = Client(HTTP_AUTHORIZATION=header) if header else Client()
    answer = client.get(URL)
    assert answer.status_code == 401
    assert answer.json()["code"] == code and answer.json()["error"]


def test_an_expired_token_is_refused(people):
    token = token_for(people["marta"], lifetime=dt.timedelta(days=30))
    AccessToken.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    answer = bearer_client(token).get(URL)
    assert (answer.status_code, answer.json()["code"]) == (401, "expired_token")


def test_a_deactivated_members_token_opens_nothing(people):
    token = token_for(people["marta"])
    people["marta"].is_active = False
    people["marta"].save()
    answer = bearer_client(token).get("/api/user/kofi")
    assert (answer.status_code, answer.json()["code"]) == (401, "unknown_token")


def test_a_token_without_the_scope_is_403_and_says_which(people):
    token = token_for(people["marta"], Scope.BOT_PLAY)
    answer = bearer_client(token).get(URL)
    assert answer.status_code == 403
    assert answer.json()["code"] == "missing_scope" and "'read'" in answer.json()["error"]


def test_a_session_is_not_a_key_to_the_api(people):
    answer = signed_in(people["marta"]).get(URL)
    assert (answer.status_code, answer.json()["code"]) == (401, "no_token")


def test_a_refusal_changes_nothing(people):
    token = token_for(people["marta"], Scope.BOT_PLAY)
    before = list(AccessToken.objects.values())
    bearer_client(token).get(URL)
    bearer_client("cgp_" + "B" * 43).get(URL)
    assert list(AccessToken.objects.values()) == before  # not even last_used_at


def test_a_member_has_at_most_twenty_live_tokens(people):
    for _ in range(tokens.MAX_ACTIVE):
        token_for(people["marta"])
    with pytest.raises(tokens.TokenRefused):
        token_for(people["marta"])


def test_the_token_limit_answers_429_with_retry_after(people, settings):
    settings.API_LIMIT_PER_TOKEN = (3, 60)
    token = token_for(people["marta"])
    client = bearer_client(token)
    assert [client.get(URL).status_code for _ in range(3)] == [200] * 3
    answer = client.get(URL)
    assert (answer.status_code, answer.json()["code"]) == (429, "rate_limited")
    assert 1 <= int(answer["Retry-After"]) <= 60
    other = bearer_client(token_for(people["kofi"]))
    assert other.get(URL).status_code == 200  # another token has its own budget


def test_the_address_limit_counts_every_request_even_without_a_token(people, settings):
    settings.API_LIMIT_PER_ADDRESS = (2, 60)
    token = token_for(people["marta"])
    assert Client().get(URL).status_code == 401
    assert bearer_client(token).get(URL).status_code == 200
    answer = bearer_client(token).get(URL)
    assert answer.status_code == 429 and int(answer["Retry-After"]) >= 1
    other = Client(REMOTE_ADDR="127.0.0.9", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert other.get(URL).status_code == 200


def test_the_members_own_profile_and_settings_link_to_the_tokens(people):
    client = signed_in(people["marta"])
    tokens_url = reverse("api-tokens")
    assert tokens_url in client.get(reverse("accounts:user", args=["marta"])).content.decode()
    assert tokens_url not in client.get(reverse("accounts:user", args=["kofi"])
                                        ).content.decode()
    assert tokens_url in client.get(reverse("notifications:settings")).content.decode()
