"""The site's day: timestamps are stored in UTC, but a "day" (daily puzzle, streaks, daily
rankings) starts at midnight in SITE_DAY_TZ, America/Los_Angeles by default."""

import datetime as dt
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone


def site_day_tz() -> ZoneInfo:
    return ZoneInfo(settings.SITE_DAY_TZ)


def pacific_today(now: dt.datetime | None = None) -> dt.date:
    """The site's current date: today in SITE_DAY_TZ at `now` (an aware datetime; default now)."""
    now = now or timezone.now()
    if timezone.is_naive(now):
        raise ValueError(f"pacific_today needs an aware datetime, got {now!r}")
    return now.astimezone(site_day_tz()).date()
