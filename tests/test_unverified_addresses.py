"""An address is not a member's until they confirm it (issue #42, point 4;
accounts/emails.py, docs/accounts.md).

A squatter signs up with someone else's address and never confirms it (they cannot: the
link goes to the owner's mailbox). Their account works (a password sign-in is not held
back), but the address is not theirs: the owner's own sign-up with it makes the owner's
account and sends the owner a link; confirming it gives the address to the owner and
drops the squatter's unconfirmed claim. The owner's password reset reaches the owner's
mailbox whatever the squatter's state. A confirmed address is still taken: a sign-up with
it makes no account and its owner gets a notice (tests/test_signup_enumeration.py)."""

import re

import pytest
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client

PASSWORD = "a-long-cargo-pass"
OWNER = "owner@example.com"
User = get_user_model()


@pytest.fixture(autouse=True)
def fast(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()  # allauth's rate limits: one mail per address every 3 minutes


def sign_up(username, email, password=PASSWORD):
    browser = Client()
    response = browser.post("/accounts/signup/", {
        "username": username, "email": email, "password1": password, "password2": password},
        follow=True)
    assert response.status_code == 200
    return browser, response


def link_in(message, pattern=r"/accounts/confirm-email/[^/\s]+/"):
    found = re.search(pattern, message.body)
    assert found, message.body
    return found.group(0)


def mails_to(address):
    return [m for m in mail.outbox if m.to == [address]]


def confirm(browser, link):
    return browser.post(link, follow=True)


def signs_in(login, password=PASSWORD):
    return Client().post("/accounts/login/", {"login": login, "password": password}) \
        .status_code == 302


def claims(email):
    return sorted((a.user.username, a.verified) for a in
                  EmailAddress.objects.filter(email__iexact=email).select_related("user"))


@pytest.fixture
def squatter():
    """mallory signed up with the owner's address; the link went to the owner's mailbox."""
    sign_up("mallory", OWNER)
    mail.outbox.clear()
    cache.clear()
    return User.objects.get(username="mallory")


def test_the_squatter_signs_in_but_does_not_own_the_address(squatter):
    assert signs_in("mallory")
    assert claims(OWNER) == [("mallory", False)]


def test_the_owners_sign_up_makes_their_account_and_sends_them_a_link(squatter):
    owner, _ = sign_up("olivia", OWNER)
    assert User.objects.filter(username="olivia").exists()
    assert claims(OWNER) == [("mallory", False), ("olivia", False)]
    [message] = mails_to(OWNER)
    assert "/accounts/confirm-email/" in message.body
    assert "already" not in message.subject.lower()
    assert signs_in("olivia")


def test_confirming_gives_the_owner_the_address_and_drops_the_squatters_claim(squatter):
    owner, _ = sign_up("olivia", OWNER)
    [message] = mails_to(OWNER)
    page = confirm(owner, link_in(message)).content.decode()
    assert f"You have confirmed {OWNER}." in page
    assert claims(OWNER) == [("olivia", True)]
    squatter.refresh_from_db()
    assert squatter.email == ""  # no address at all now; the account itself stays
    assert signs_in("mallory") and not signs_in(OWNER, PASSWORD + "-wrong")
    assert User.objects.get(username="olivia").email == OWNER


def test_the_squatters_link_does_nothing_once_the_owner_confirmed(squatter):
    """The link mallory's sign-up sent (to the owner's mailbox) confirms nothing once the
    owner's account has the address: mallory's claim, and with it the link, is gone."""
    key = EmailConfirmationHMAC(EmailAddress.objects.get(user=squatter)).key
    old_link = f"/accounts/confirm-email/{key}/"
    owner, _ = sign_up("olivia", OWNER)
    confirm(owner, link_in(mails_to(OWNER)[0]))
    assert "expired or is invalid" in Client().get(old_link).content.decode()
    Client().post(old_link)
    assert claims(OWNER) == [("olivia", True)]


def test_after_the_owner_confirmed_a_sign_up_with_the_address_makes_no_account(squatter):
    owner, _ = sign_up("olivia", OWNER)
    confirm(owner, link_in(mails_to(OWNER)[0]))
    mail.outbox.clear()
    cache.clear()
    sign_up("mallory3", OWNER)
    assert not User.objects.filter(username="mallory3").exists()
    [notice] = mails_to(OWNER)
    assert "/accounts/password/reset/" in notice.body


def test_the_owners_reset_reaches_the_owner_before_they_have_an_account(squatter):
    """The only account claiming the address is mallory's, unconfirmed: the reset mail
    goes to the owner's mailbox (never to mallory), names the account, and says that
    the address can be the owner's own account's instead."""
    Client().post("/accounts/password/reset/", {"email": OWNER})
    assert [m.to for m in mail.outbox] == [[OWNER]]
    body = mail.outbox[0].body
    assert "mallory" in body and "/accounts/password/reset/key/" in body
    assert "not confirmed" in body and "/accounts/signup/" in body


def test_the_owners_reset_reaches_the_owner_once_both_claim_it(squatter):
    sign_up("olivia", OWNER)
    mail.outbox.clear()
    cache.clear()
    Client().post("/accounts/password/reset/", {"email": OWNER})
    assert {m.to[0] for m in mail.outbox} == {OWNER}
    assert sorted(re.search(r"username is (\w+)", m.body).group(1) for m in mail.outbox) \
        == ["mallory", "olivia"]


def test_the_owners_reset_reaches_only_the_owners_account_once_confirmed(squatter):
    owner, _ = sign_up("olivia", OWNER)
    confirm(owner, link_in(mails_to(OWNER)[0]))
    mail.outbox.clear()
    cache.clear()
    Client().post("/accounts/password/reset/", {"email": OWNER})
    [message] = mail.outbox
    assert message.to == [OWNER] and "olivia" in message.body and "mallory" not in message.body


def test_the_owners_reset_reaches_them_when_the_squatter_is_deactivated(squatter):
    User.objects.filter(pk=squatter.pk).update(is_active=False)
    Client().post("/accounts/password/reset/", {"email": OWNER})
    [message] = mail.outbox
    assert message.to == [OWNER] and "/accounts/signup/" in message.body


@pytest.mark.django_db(transaction=True)
def test_notification_emails_go_to_confirmed_addresses_only(squatter, mailoutbox):
    """The squatter opts in to the digest and the alarm: nothing is mailed to the owner's
    address while it is only a claim; the settings page says why and links to the page
    that sends the link again. Once the owner confirms it for their own account, the
    owner's digest goes there."""
    from notifications import choices
    from notifications import mail as notification_mail
    from tests.notifications.support import correspondence_game, play

    other = User.objects.create_user("bob", "bob@example.com", PASSWORD)  # set by the operator
    for member in (squatter, other):
        choices.save(member, in_site=["your_turn"], by_email=["your_turn"], digest=True,
                     alarm=True)
    for blue, orange in ((squatter, other), (other, squatter)):
        game = correspondence_game(blue, orange)
        play(game.id, blue)
    mailoutbox.clear()
    assert notification_mail.send_digests() == 1  # bob's; not mallory's
    assert [m.to for m in mailoutbox] == [["bob@example.com"]]
    browser = Client()
    browser.force_login(squatter)
    page = browser.get("/notifications/settings").content.decode()
    assert f"Your address {OWNER} is not confirmed yet: nothing is sent to it" in page
    assert 'href="/accounts/email/"' in page
    owner, _ = sign_up("olivia", OWNER)
    olivia = User.objects.get(username="olivia")
    choices.save(olivia, in_site=["your_turn"], by_email=["your_turn"], digest=True,
                 alarm=False)
    play(correspondence_game(other, olivia).id, other)
    confirm(owner, link_in(mails_to(OWNER)[-1]))
    mailoutbox.clear()
    assert notification_mail.send_digests() == 1
    assert [m.to for m in mailoutbox] == [[OWNER]] and "olivia" not in mailoutbox[0].subject


def test_the_page_after_sign_up_says_sign_in_now_and_where_the_link_is(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    _, response = sign_up("newcomer", "new@example.com")
    page = response.content.decode()
    assert "You can sign in now" in page
    assert 'href="/accounts/login/"' in page
    assert "We sent a confirmation link to the email address you gave" in page
    assert "printed in the terminal running <code>make run</code>" in page
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    cache.clear()
    _, response = sign_up("newcomer2", "new2@example.com")
    assert "make run" not in response.content.decode()
