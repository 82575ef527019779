"""The site's own deploy checks (`manage.py check --deploy`), registered by
common/apps.py.

- cargosite.E001: with DEBUG off, a mail backend that writes whole messages where a log or
  file reader sees them (the console, a file, memory): password-reset links in a log grant
  access to the account (issue #28, point 4).
- cargosite.W002: sign-up can tell whether an email is registered unless email
  verification is mandatory (allauth can only hide it then; issue #28, point 8).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

WRITES_MESSAGES = {
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
}


@register(Tags.security, deploy=True)
def mail_is_not_logged(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    if settings.DEBUG or settings.EMAIL_BACKEND not in WRITES_MESSAGES:
        return []
    return [Error(
        f"EMAIL_BACKEND is {settings.EMAIL_BACKEND} with DEBUG off: every message, with "
        "its password-reset or confirmation link, would be written where a log reader "
        "sees it.",
        hint="Set EMAIL_HOST (SMTP), or leave it unset to send no mail at all "
             "(cargosite.mail.NoMailBackend).",
        id="cargosite.E001")]


@register(Tags.security, deploy=True)
def signup_does_not_enumerate(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    if getattr(settings, "ACCOUNT_EMAIL_VERIFICATION", "optional") == "mandatory":
        return []
    return [Warning(
        "ACCOUNT_EMAIL_VERIFICATION is not mandatory: sign-up tells anyone whether an "
        "email address is registered.",
        hint="Leave ACCOUNT_EMAIL_VERIFICATION unset (mandatory).",
        id="cargosite.W002")]
