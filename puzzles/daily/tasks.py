"""The Daily Challenge's Celery task: the end-of-day resign, run by beat every minute
(scheduled in UTC: CELERY_BEAT_SCHEDULE "daily-end-of-day"). Idempotent: a game is resigned
once however often the task runs, and the lazy check on opening a game agrees with it."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="daily.resign_expired", acks_late=True, soft_time_limit=50, time_limit=60,
             ignore_result=True)
def resign_expired() -> list[str]:
    """Resign every ranked daily game still running after its Pacific day."""
    return services.resign_expired()
