"""Sign-in, sign-up and password reset answer while Redis is down (issue #28, point 3):
allauth's rate limits take a lock in the cache, and Django's RedisCache raised
ConnectionError ("500 Something broke"). The production cache (cargosite/cache.py) keeps
the limits in the process's memory while Redis does not answer."""

import json
import logging

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client, override_settings

PASSWORD = "a-long-cargo-pass"


@pytest.fixture
def redis_down_caches(run_python):
    """The CACHES production builds from REDIS_URL, pointed at a port nothing listens on."""
    done = run_python("import django, json; django.setup(); from django.conf import settings;"
                      " print(json.dumps(settings.CACHES))",
                      REDIS_URL="redis://127.0.0.1:1/0")
    assert done.returncode == 0, done.stderr
    with override_settings(CACHES=json.loads(done.stdout.strip().splitlines()[-1]),
                           PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture
def erin(db):
    user = get_user_model().objects.create_user("erin", "erin@example.com", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.mark.django_db
def test_sign_in_sign_up_and_reset_answer_while_redis_is_down(redis_down_caches, erin,
                                                              caplog):
    browser = Client(raise_request_exception=False)
    wrong = browser.post("/accounts/login/", {"login": "erin", "password": "wrong"})
    assert wrong.status_code == 200 and "not correct" in wrong.content.decode()
    right = browser.post("/accounts/login/", {"login": "erin", "password": PASSWORD})
    assert (right.status_code, right["Location"]) == (302, "/")

    signup = Client(raise_request_exception=False).post("/accounts/signup/", {
        "username": "fern", "email": "fern@example.com",
        "password1": PASSWORD, "password2": PASSWORD})
    assert signup.status_code == 302
    assert get_user_model().objects.filter(username="fern").exists()

    reset = Client(raise_request_exception=False).post("/accounts/password/reset/",
                                                       {"email": "erin@example.com"})
    assert reset.status_code == 302
    assert any(m.to == ["erin@example.com"] for m in mail.outbox)
    warnings = [r for r in caplog.records if r.name == "cargosite.cache"]
    assert len(warnings) == 1 and not warnings[0].exc_info  # one line for the outage


@pytest.mark.django_db
def test_the_limits_still_hold_in_memory_while_redis_is_down(redis_down_caches, settings):
    settings.ACCOUNT_RATE_LIMITS = {"reset_password": "20/m/ip,2/m/key"}
    browser = Client(raise_request_exception=False)
    codes = [browser.post("/accounts/password/reset/", {"email": "x@example.com"}).status_code
             for _ in range(3)]
    assert codes == [302, 302, 429]


def test_redis_back_is_used_again(settings, monkeypatch, caplog):
    """After the retry interval the cache tries Redis again and says so when it answers."""
    from cargosite import cache as fallback

    caplog.set_level(logging.WARNING, "cargosite.cache")
    backend = fallback.FallbackRedisCache("redis://127.0.0.1:1/0", {})
    assert backend.add("k", 1) is True and backend.get("k") == 1  # from memory
    monkeypatch.setattr(fallback, "RETRY_SECONDS", 0.0)
    backend._down_until = 0.0
    monkeypatch.setattr(fallback.RedisCache, "get", lambda self, key, default=None,
                        version=None: "from redis")
    assert backend.get("k") == "from redis"
    assert [r.getMessage().split(" (")[0] for r in caplog.records][-1].startswith(
        "the cache's Redis answers again")
    cache.clear()
