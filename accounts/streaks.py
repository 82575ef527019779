"""Streaks, from a member's `GameStats` rows (online and casual games only): the current and
best win streak (a draw or a loss ends one), and the days-played streak in Pacific days
(`common.timezones`: a day starts at midnight in SITE_DAY_TZ, across daylight-saving
changes). A days streak is current while its last day is today or yesterday."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from common.timezones import pacific_today
from games.models import Seat

from .models import GameStats


@dataclass(frozen=True)
class Streaks:
    win_current: int
    win_best: int
    days_current: int
    days_best: int
    last_day: dt.date | None


def win_streaks(outcomes: Iterable[str]) -> tuple[int, int]:
    """(current, best) runs of wins in `outcomes`, oldest first."""
    current = best = 0
    for outcome in outcomes:
        current = current + 1 if outcome == Seat.Outcome.WIN else 0
        best = max(best, current)
    return current, best


def day_streaks(days: Sequence[dt.date], today: dt.date) -> tuple[int, int]:
    """(current, best) runs of consecutive days in `days` (sorted, distinct)."""
    best = run = 0
    previous: dt.date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and (today - previous) <= dt.timedelta(days=1)
    return (run if alive else 0), best


def streaks_of(user: Any, now: dt.datetime | None = None) -> Streaks:
    """A member's streaks, in one query over their rows."""
    rows = list(GameStats.objects.filter(user=user).order_by("finished_at", "id")
                .values_list("outcome", "day"))
    win_current, win_best = win_streaks(outcome for outcome, _ in rows)
    days = sorted({day for _, day in rows})
    days_current, days_best = day_streaks(days, pacific_today(now))
    return Streaks(win_current, win_best, days_current, days_best, days[-1] if days else None)


def recent_wins(user: Any, n: int) -> int:
    """How many of the member's last `n` counted games in a row were wins (bounded)."""
    outcomes = list(GameStats.objects.filter(user=user).order_by("-finished_at", "-id")
                    .values_list("outcome", flat=True)[:n])
    run = 0
    for outcome in outcomes:
        if outcome != Seat.Outcome.WIN:
            break
        run += 1
    return run


def recent_days(user: Any, n: int, today: dt.date) -> int:
    """The member's current days streak, looking back at most `n` days (bounded)."""
    since = today - dt.timedelta(days=n)
    days = sorted(set(GameStats.objects.filter(user=user, day__gte=since)
                      .values_list("day", flat=True)))
    return day_streaks(days, today)[0]
