"""Template words that depend on where the site's mail goes."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()

CONSOLE = "django.core.mail.backends.console.EmailBackend"


@register.simple_tag
def mail_is_printed() -> bool:
    """Is mail written to the terminal (development without a mail server: `make run`)
    rather than sent?"""
    return bool(settings.EMAIL_BACKEND == CONSOLE)
