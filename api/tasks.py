"""The API's Celery task: clearing OAuth 2 rows that can never open anything again (the
beat's `api-clear-expired-tokens`, once a night; cargosite/settings.py)."""

from __future__ import annotations

from celery import shared_task

from . import oauth


@shared_task(name="api.clear_expired_tokens", time_limit=600)
def clear_expired_tokens() -> int:
    """The toolkit's expired rows and the revoked checksums no longer needed; how many
    checksums were deleted (the toolkit logs its own counts)."""
    return oauth.clear_expired()
