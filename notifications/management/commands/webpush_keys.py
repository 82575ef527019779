"""`manage.py webpush_keys`: a new VAPID key pair (P-256) for web push, printed as the two
environment lines the settings read (base64url: the private key's 32 raw bytes, the public
key's 65-byte uncompressed point). Keep the private one secret; changing the pair makes
every browser subscribe again."""

from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push as WEBPUSH_VAPID_* environment lines."

    def handle(self, *args: Any, **options: Any) -> None:
        key = ec.generate_private_key(ec.SECP256R1())
        private = key.private_numbers().private_value.to_bytes(32, "big")
        public = key.public_key().public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={_b64url(private)}\n"
                          f"WEBPUSH_VAPID_PUBLIC_KEY={_b64url(public)}\n")
