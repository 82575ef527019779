"""Sign-up does not tell whether an email is registered (issue #28, point 8): a sign-up
with a member's email is answered exactly as one with a new email ("we sent you a link"),
no second account is made, and the address's owner is sent a notice instead."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client

PASSWORD = "a-long-cargo-pass"


def sign_up(username, email):
    response = Client().post("/accounts/signup/", {
        "username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
        follow=True)
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())
    return (response.status_code, [url for url, _ in response.redirect_chain],
            page.replace(username, "NAME").replace(email, "EMAIL"))


@pytest.fixture
def erin(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()  # allauth sends one mail per address every 3 minutes (its rate limits)
    return get_user_model().objects.create_user("erin", "erin@example.com", PASSWORD)


@pytest.mark.django_db
def test_a_registered_email_gets_the_same_answer_as_a_new_one(erin):
    taken = sign_up("someone", "erin@example.com")
    new = sign_up("another", "new@example.com")
    assert taken == new
    assert "already registered" not in taken[2]
    assert not get_user_model().objects.filter(username="someone").exists()


@pytest.mark.django_db
def test_the_owner_gets_a_notice_and_the_new_address_a_link(erin):
    sign_up("someone", "erin@example.com")
    sign_up("another", "new@example.com")
    to_erin = [m for m in mail.outbox if m.to == ["erin@example.com"]]
    to_new = [m for m in mail.outbox if m.to == ["new@example.com"]]
    assert len(to_erin) == 1 and "already" in to_erin[0].subject.lower() + to_erin[0].body
    assert "/accounts/password/reset/" in to_erin[0].body  # a way back in, not an account
    assert len(to_new) == 1 and "/accounts/confirm-email/" in to_new[0].body


def test_check_deploy_warns_when_sign_up_can_enumerate(settings):
    from django.core.checks import run_checks

    ids = {m.id for m in run_checks(include_deployment_checks=True)}
    assert "cargosite.W002" not in ids
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    assert "cargosite.W002" in {m.id for m in run_checks(include_deployment_checks=True)}


@pytest.mark.django_db
def test_members_sign_in_by_password_without_a_confirmed_address(erin):
    """Verification is asked for at sign-up only: a member who never confirmed an address
    (every member before #28) still signs in, mail server or not (accounts/forms.py)."""
    browser = Client()
    response = browser.post("/accounts/login/", {"login": "erin", "password": PASSWORD})
    assert (response.status_code, response["Location"]) == (302, "/")
    assert browser.get("/").context["user"].username == "erin"
