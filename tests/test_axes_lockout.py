"""Failed sign-ins are rate limited by django-axes through allauth's form: five failures
for one account (by username or email) from one address lock it out for the cool-off."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

PASSWORD = "a-long-cargo-pass"


@pytest.fixture
def erin(db):
    cache.clear()  # allauth keeps its own sign-in rate limits in the cache
    return get_user_model().objects.create_user("erin", "erin@example.com", PASSWORD)


def sign_in(client, login, password, ip="10.0.0.1"):
    return client.post("/accounts/login/", {"login": login, "password": password},
                       REMOTE_ADDR=ip)


@pytest.mark.django_db
def test_it_locks_out_after_five_failures_by_username_or_email(erin, client, settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    for login in ("erin", "erin@example.com", "ERIN", "Erin@Example.com"):
        assert sign_in(client, login, "wrong").status_code == 200  # the form again
    assert sign_in(client, "erin", "wrong").status_code == 429  # the fifth failure locks
    response = sign_in(client, "erin", PASSWORD)  # right password, but locked
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert sign_in(client, "erin@example.com", PASSWORD).status_code == 429
    assert sign_in(client, "erin", PASSWORD, ip="10.0.0.2").status_code == 302  # other address


@pytest.mark.django_db
def test_a_success_resets_the_count(erin, client):
    for _ in range(4):
        sign_in(client, "erin", "wrong")
    assert sign_in(client, "erin", PASSWORD).status_code == 302
    client.logout()
    cache.clear()  # allauth's own limit (5 failures per 5 minutes) does not reset on success
    for _ in range(4):
        sign_in(client, "erin", "wrong")
    assert sign_in(client, "erin", PASSWORD).status_code == 302
