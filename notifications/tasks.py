"""The Celery beat tasks of the notification emails (CELERY_BEAT_SCHEDULE): each is
idempotent (a digest's day stamp, an alarm's row per decision), so beat may run them as
often as it likes."""

from __future__ import annotations

from celery import shared_task

from . import mail, push


@shared_task(name="notifications.send_digests", time_limit=600)
def send_digests() -> int:
    return mail.send_digests()


@shared_task(name="notifications.send_alarms", time_limit=300)
def send_alarms() -> int:
    return mail.send_alarms()


@shared_task(name="notifications.send_push", time_limit=120, ignore_result=True)
def send_push(notification_id: int) -> int:
    """One notification to its member's subscribed browsers (web push), sent after the
    notification's transaction committed; a notification already read is not pushed."""
    return push.deliver(notification_id)
