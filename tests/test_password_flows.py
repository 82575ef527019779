"""Password change and reset through allauth, mail by the configured backend."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail


@pytest.fixture
def erin(db):
    return get_user_model().objects.create_user("erin", "erin@example.com", "a-long-cargo-pass")


@pytest.mark.django_db
def test_it_changes_the_password(erin, client):
    client.force_login(erin)
    assert client.get("/accounts/password/change/").status_code == 200
    response = client.post("/accounts/password/change/", {
        "oldpassword": "a-long-cargo-pass",
        "password1": "another-cargo-pass", "password2": "another-cargo-pass",
    })
    assert response.status_code == 302
    erin.refresh_from_db()
    assert erin.check_password("another-cargo-pass")


@pytest.mark.django_db
def test_it_resets_a_forgotten_password_by_email(erin, client):
    response = client.post("/accounts/password/reset/", {"email": "erin@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["erin@example.com"]
    link = re.search(r"https?://[^/]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body)
    response = client.get(link.group(1), follow=True)
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else link.group(1)
    response = client.post(form_url, {"password1": "reset-cargo-pass",
                                      "password2": "reset-cargo-pass"})
    assert response.status_code == 302
    erin.refresh_from_db()
    assert erin.check_password("reset-cargo-pass")


def test_mail_goes_to_the_console_only_in_development(run_python):
    """Production without EMAIL_HOST sends nothing: the console backend would write
    password-reset links into the ASGI logs (issue #28, point 4)."""
    code = ("import django; django.setup(); from django.conf import settings; "
            "print(settings.EMAIL_BACKEND)")
    assert run_python(code).stdout.strip().endswith("console.EmailBackend")
    production = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "k" * 50,
                  "DJANGO_ALLOWED_HOSTS": "cargo.example"}
    assert run_python(code, **production).stdout.strip() == "cargosite.mail.NoMailBackend"
    smtp = run_python(code, EMAIL_HOST="smtp.example.com", **production).stdout.strip()
    assert smtp.endswith("smtp.EmailBackend")


@pytest.mark.django_db
def test_a_reset_in_production_without_a_mail_server_logs_no_link(erin, client, settings,
                                                                   caplog):
    settings.EMAIL_BACKEND = "cargosite.mail.NoMailBackend"
    response = client.post("/accounts/password/reset/", {"email": "erin@example.com"})
    assert response.status_code == 302
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "mail not sent" in logged
    assert "/accounts/password/reset/key/" not in logged and "erin@example.com" not in logged


def test_check_deploy_refuses_a_mail_backend_that_writes_messages(settings):
    from django.core.checks import run_checks

    settings.DEBUG = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    ids = {m.id for m in run_checks(include_deployment_checks=True)}
    assert "cargosite.E001" in ids
    settings.EMAIL_BACKEND = "cargosite.mail.NoMailBackend"
    assert "cargosite.E001" not in {m.id for m in run_checks(include_deployment_checks=True)}
