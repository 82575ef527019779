"""The site's day turns over at midnight Pacific time, whatever the UTC date."""

import datetime as dt

import pytest

from common.timezones import pacific_today, site_day_tz

UTC = dt.UTC


def test_it_uses_pacific_time():
    assert str(site_day_tz()) == "America/Los_Angeles"


def test_it_is_still_yesterday_in_the_pacific_early_in_the_utc_day():
    assert pacific_today(dt.datetime(2026, 3, 1, 7, 59, tzinfo=UTC)) == dt.date(2026, 2, 28)
    assert pacific_today(dt.datetime(2026, 3, 1, 8, 0, tzinfo=UTC)) == dt.date(2026, 3, 1)


def test_it_follows_daylight_saving_time():
    # PDT (UTC-7) in July: the day starts at 07:00 UTC.
    assert pacific_today(dt.datetime(2026, 7, 4, 6, 59, tzinfo=UTC)) == dt.date(2026, 7, 3)
    assert pacific_today(dt.datetime(2026, 7, 4, 7, 0, tzinfo=UTC)) == dt.date(2026, 7, 4)


def test_it_refuses_naive_datetimes():
    with pytest.raises(ValueError, match="aware"):
        pacific_today(dt.datetime(2026, 7, 4, 12, 0))


def test_it_defaults_to_now():
    assert isinstance(pacific_today(), dt.date)
