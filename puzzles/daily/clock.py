"""The Daily Challenge's calendar: the Pacific day, its bounds in UTC, its bay size and its
seed. Pure functions of a date (and the server's secret), no database.

The day is the calendar day in America/Los_Angeles, computed with zoneinfo from the date:
its start is midnight Pacific converted to UTC, its end the next date's midnight (never
"start + 24 hours": the days of the daylight-saving changes last 23 and 25 hours). Every
time the Challenge reads comes from `now()`, which tests replace to freeze the clock.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

PACIFIC = ZoneInfo("America/Los_Angeles")
UTC = dt.UTC

# Monday 5×5; Tuesday and Wednesday 6×6; Thursday and Friday 7×7; Saturday and Sunday 8×8.
SIZE_BY_WEEKDAY = (5, 6, 6, 7, 7, 8, 8)  # date.weekday(): Monday is 0
SEED_BITS = 48


def now() -> dt.datetime:
    """The current time, aware, in UTC (the one clock of the Daily Challenge)."""
    return timezone.now()


def day_of(moment: dt.datetime) -> dt.date:
    """The Pacific calendar date at `moment` (an aware datetime)."""
    if timezone.is_naive(moment):
        raise ValueError(f"day_of needs an aware datetime, got {moment!r}")
    return moment.astimezone(PACIFIC).date()


def today() -> dt.date:
    return day_of(now())


def day_start(day: dt.date) -> dt.datetime:
    """Midnight Pacific at the start of `day`, in UTC."""
    return dt.datetime.combine(day, dt.time(0), tzinfo=PACIFIC).astimezone(UTC)


def day_end(day: dt.date) -> dt.datetime:
    """The end of `day` (exclusive): midnight Pacific of the next date, in UTC. The last
    moment of the day is 11:59:59.999999 pm Pacific."""
    return day_start(day + dt.timedelta(days=1))


def is_over(day: dt.date, moment: dt.datetime | None = None) -> bool:
    return (moment or now()) >= day_end(day)


def size_of(day: dt.date) -> int:
    return SIZE_BY_WEEKDAY[day.weekday()]


def _secret() -> bytes:
    """The server's secret for the seeds: DAILY_SEED_SECRET, else one derived from
    SECRET_KEY (never sent to a client either way)."""
    explicit = getattr(settings, "DAILY_SEED_SECRET", "")
    if explicit:
        return explicit.encode()
    return hmac.new(settings.SECRET_KEY.encode(), b"cargo-connect daily seed",
                    hashlib.sha256).digest()


def daily_seed(day: dt.date) -> int:
    """The day's seed, shared by the three difficulties: HMAC-SHA256 of the date under the
    server's secret, so nobody can compute tomorrow's CargoBot without the secret."""
    digest = hmac.new(_secret(), f"daily:{day.isoformat()}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def month_of(day: dt.date) -> dt.date:
    """The Pacific month a day belongs to, as its first day."""
    return day.replace(day=1)
