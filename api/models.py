"""A member's personal access tokens. Only a token's SHA-256 digest is stored: the token
itself is shown once, when it is made (`api.tokens.create`), and cannot be read back. A
revoked token keeps its row (when and that it was revoked) and never authenticates again."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone


class AccessToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens")
    name = models.CharField(max_length=60)  # the member's own label for it
    prefix = models.CharField(max_length=12)  # the first characters, to recognise it by
    digest = models.CharField(max_length=64, unique=True)  # SHA-256 of the token, hex
    scopes = models.JSONField(default=list)  # scope names (api.scopes.Scope values)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True)  # None: never
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = [models.Index(fields=("user", "revoked_at"))]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user_id}"

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    def expired(self, now: dt.datetime | None = None) -> bool:
        moment = now if now is not None else timezone.now()
        return self.expires_at is not None and self.expires_at <= moment


class RevokedAppToken(models.Model):
    """An app's OAuth 2 access token that was revoked (django-oauth-toolkit deletes the
    row): its SHA-256 kept so that it is refused as `revoked_token`, as a revoked personal
    token is, rather than as an unknown one (`api.oauth`)."""

    checksum = models.CharField(max_length=64, unique=True)  # the token's SHA-256, hex
    revoked_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"revoked app token {self.checksum[:8]}…"
