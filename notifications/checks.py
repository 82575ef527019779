"""The web push settings' check (`manage.py check`, at every start): `notifications.E001`
when the VAPID keys are set but unusable (one without the other, a private key that does
not parse, a public key that is not the private key's) or the contact is not a `mailto:`
or `https:` address the push services take. No keys at all is fine: push is not offered."""

from __future__ import annotations

import base64
import re
from typing import Any

from django.conf import settings
from django.core.checks import Error, register

CONTACT = re.compile(r"^(mailto:[^@\s]+@[^@\s]+|https://[^/\s]+)$", re.IGNORECASE)


def _problem() -> str:
    private = settings.WEBPUSH_VAPID_PRIVATE_KEY
    public = settings.WEBPUSH_VAPID_PUBLIC_KEY
    if not private and not public:
        return ""
    if not private or not public:
        return "only one of WEBPUSH_VAPID_PRIVATE_KEY and WEBPUSH_VAPID_PUBLIC_KEY is set"
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid

    try:
        key = Vapid.from_string(private)
        derived = key.public_key.public_bytes(serialization.Encoding.X962,
                                              serialization.PublicFormat.UncompressedPoint)
    except Exception:
        return "WEBPUSH_VAPID_PRIVATE_KEY is not a base64url P-256 private key"
    if base64.urlsafe_b64encode(derived).rstrip(b"=").decode() != public.rstrip("="):
        return "WEBPUSH_VAPID_PUBLIC_KEY is not the public key of WEBPUSH_VAPID_PRIVATE_KEY"
    if not CONTACT.match(settings.WEBPUSH_CONTACT):
        return f"WEBPUSH_CONTACT {settings.WEBPUSH_CONTACT!r} is not mailto:… or https://…"
    return ""


@register()
def webpush_settings(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    problem = _problem()
    if not problem:
        return []
    return [Error(f"web push: {problem}.",
                  hint="Make a pair with `manage.py webpush_keys`, or unset both keys to "
                       "offer no push.", id="notifications.E001")]
