"""The Pacific day: its bounds at 23:59:59 / 00:00:00, on both daylight-saving change days
of 2026 and 2027, and the bay size by weekday (time frozen)."""

import datetime as dt

import pytest

from puzzles.daily import clock
from tests.daily.conftest import pacific

# (date, weekday's size, hours in the day): the DST changes in America/Los_Angeles
DST_DAYS = [
    (dt.date(2026, 3, 8), 8, 23),  # Sunday, spring forward
    (dt.date(2026, 11, 1), 8, 25),  # Sunday, fall back
    (dt.date(2027, 3, 14), 8, 23),
    (dt.date(2027, 11, 7), 8, 25),
]


@pytest.mark.parametrize("day,size,hours", DST_DAYS)
def test_a_daylight_saving_day_lasts_its_real_length(day, size, hours):
    assert clock.day_end(day) - clock.day_start(day) == dt.timedelta(hours=hours)
    assert clock.size_of(day) == size


@pytest.mark.parametrize("day", [d for d, _, _ in DST_DAYS] + [dt.date(2026, 3, 9),
                                                                 dt.date(2026, 7, 15)])
def test_the_day_turns_over_at_midnight_pacific(day):
    last = pacific(day.year, day.month, day.day, 23, 59, 59)
    nxt = day + dt.timedelta(days=1)
    first = pacific(nxt.year, nxt.month, nxt.day, 0, 0, 0)
    assert clock.day_of(last) == day
    assert clock.day_of(first) == nxt
    assert not clock.is_over(day, last)
    assert clock.is_over(day, first)
    assert clock.day_end(day) == first.astimezone(dt.UTC)
    # the stored times are UTC
    assert clock.day_start(day).tzinfo == dt.UTC


def test_the_utc_date_does_not_decide_the_day():
    # 06:30 UTC on 9 March 2026 is still 8 March in California (PDT started that day)
    moment = dt.datetime(2026, 3, 9, 6, 30, tzinfo=dt.UTC)
    assert clock.day_of(moment) == dt.date(2026, 3, 8)
    assert clock.day_of(dt.datetime(2026, 3, 9, 7, 0, tzinfo=dt.UTC)) == dt.date(2026, 3, 9)


def test_sizes_by_weekday():
    monday = dt.date(2026, 3, 9)
    sizes = [clock.size_of(monday + dt.timedelta(days=i)) for i in range(7)]
    assert sizes == [5, 6, 6, 7, 7, 8, 8]


def test_a_naive_time_is_refused():
    with pytest.raises(ValueError):
        clock.day_of(dt.datetime(2026, 3, 9, 12, 0))


@pytest.mark.django_db
@pytest.mark.parametrize("day,size,hours", DST_DAYS)
def test_the_page_at_the_last_and_first_second(client, frozen, day, size, hours):
    frozen.set(pacific(day.year, day.month, day.day, 23, 59, 59))
    page = client.get("/puzzles/daily/").content.decode()
    assert f"{size}×{size}" in page
    assert 'data-ends="' + clock.day_end(day).isoformat() + '"' in page
    assert "0 h 0 min left" in page
    nxt = day + dt.timedelta(days=1)
    frozen.set(pacific(nxt.year, nxt.month, nxt.day, 0, 0, 0))
    page = client.get("/puzzles/daily/").content.decode()
    assert f"{clock.size_of(nxt)}×{clock.size_of(nxt)}" in page  # Monday: 5×5
    assert clock.size_of(nxt) == 5
    assert "24 h 0 min left" in page  # the Monday after lasts 24 hours
    # and at the first second of the changing day itself, the whole 23 or 25 hours are left
    frozen.set(pacific(day.year, day.month, day.day, 0, 0, 0))
    page = client.get("/puzzles/daily/").content.decode()
    assert f"{hours} h 0 min left" in page
