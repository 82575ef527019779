"""Failed sign-ins through allauth's form, limited by django-axes (accounts/axes.py): five
failures for one account (by username or email) from one address lock that pair out; many
failures from one address with any names lock the address; nothing is ever locked per
name alone (issue #28, point 2), and the answers do not tell which names exist."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache

PASSWORD = "a-long-cargo-pass"


@pytest.fixture(autouse=True)
def quick_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def erin(db):
    cache.clear()  # allauth keeps its per-address burst limit in the cache
    user = get_user_model().objects.create_user("erin", "erin@example.com", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def sign_in(client, login, password, ip="10.0.0.1"):
    return client.post("/accounts/login/", {"login": login, "password": password},
                       REMOTE_ADDR=ip)


def signed_in(response):
    return response.status_code == 302 and response["Location"] == "/"


@pytest.mark.django_db
def test_it_locks_out_the_pair_after_five_failures_by_username_or_email(erin, client,
                                                                        settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    for login in ("erin", "erin@example.com", "ERIN", "Erin@Example.com"):
        assert sign_in(client, login, "wrong").status_code == 200  # the form again
    assert sign_in(client, "erin", "wrong").status_code == 429  # the fifth failure locks
    response = sign_in(client, "erin", PASSWORD)  # right password, but locked
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert sign_in(client, "erin@example.com", PASSWORD).status_code == 429


@pytest.mark.django_db
def test_failures_from_one_address_do_not_lock_the_member_out_elsewhere(erin, client):
    """The probe: five wrong passwords with the same name from one address locked the
    member out from every address (allauth's per-name limit)."""
    for _ in range(7):
        sign_in(client, "erin", "wrong", ip="10.0.0.66")
    assert signed_in(sign_in(client, "erin", PASSWORD, ip="10.0.0.2"))


@pytest.mark.django_db
def test_many_failures_from_one_address_lock_that_address(erin, client, settings):
    settings.AXES_ADDRESS_FAILURE_LIMIT = 12
    for n in range(12):  # a spray over many names, four tries each at most
        sign_in(client, f"name{n // 4}", "wrong", ip="10.0.0.66")
    assert sign_in(client, "erin", PASSWORD, ip="10.0.0.66").status_code == 429
    assert signed_in(sign_in(client, "erin", PASSWORD, ip="10.0.0.2"))


@pytest.mark.django_db
def test_the_answers_do_not_tell_whether_a_name_exists(erin, client):
    def answers(login, ip):
        codes = [sign_in(client, login, "wrong", ip=ip).status_code for _ in range(6)]
        page = sign_in(client, login, "wrong", ip=ip).content.decode()
        return codes, "Too many failed sign-ins" in page

    assert answers("erin", "10.0.0.7") == answers("nobody-here", "10.0.0.8")


@pytest.mark.django_db
def test_a_success_resets_the_pair_but_not_the_address(erin, client, settings):
    settings.AXES_ADDRESS_FAILURE_LIMIT = 10
    for _ in range(4):
        sign_in(client, "erin", "wrong")
    assert signed_in(sign_in(client, "erin", PASSWORD))
    client.logout()
    for _ in range(4):
        sign_in(client, "erin", "wrong")
    assert signed_in(sign_in(client, "erin", PASSWORD))
    client.logout()
    # Failures with other names from this address stay counted across erin's success.
    for n in range(8):
        sign_in(client, f"other{n}", "wrong")
    assert signed_in(sign_in(client, "erin", PASSWORD))
    client.logout()
    for n in range(2):
        sign_in(client, f"more{n}", "wrong")
    assert sign_in(client, "erin", PASSWORD).status_code == 429
