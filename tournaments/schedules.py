"""Recurring tournaments (`Schedule`, set up in the admin): the beat's tick announces each
due schedule's next tournament, exactly once (docs/tournaments.md, "Schedules").

`create_due(now)` takes every active schedule whose `next_at` has come and, for each, in one
transaction: on PostgreSQL `pg_try_advisory_xact_lock(SCHEDULE_LOCK_CLASS, id)` (a second
beat process, or a tick overlapping the last, gets false and skips the schedule now), then
the schedule's row `SELECT … FOR UPDATE`, under which `active` and `next_at` are read again;
the tournament is created (`services.create_tournament`, `created_by` None) and `next_at`
moved past now in the same transaction. A second tick finds `next_at` in the future: one
tournament per period, however many ticks run. SQLite has one writer at a time: the
transaction is the lock there.

After downtime only the current period's tournament is made: `next_at` + k periods, the
latest not after now; the periods missed are skipped (a tournament announced long after
its time would start with nobody). It starts `lead_minutes` after its period's
announcement, or `lead_minutes` from now if that is already past.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from tournaments import services
from tournaments.models import Schedule, Tournament
from tournaments.rounds import TournamentError

log = logging.getLogger(__name__)

SCHEDULE_LOCK_CLASS = 4647  # the advisory locks' first key for schedules (4646: tournaments)
MAX_EVERY_HOURS = 24 * 28
MAX_LEAD_MINUTES = 24 * 60
SAMPLE = {"date": "2026-12-06", "time": "18:00", "n": 100}


def tournament_name(pattern: str, at: dt.datetime, n: int) -> str:
    """The pattern with `{date}`, `{time}` (UTC) and `{n}` filled in; ValueError if it
    names anything else or is malformed."""
    at = at.astimezone(dt.UTC)
    try:
        return pattern.format(date=at.strftime("%Y-%m-%d"), time=at.strftime("%H:%M"), n=n)
    except (KeyError, IndexError, ValueError, AttributeError) as e:
        raise ValueError("the name may use {date}, {time} and {n} only") from e


def check_schedule(*, name: str, game_type: str, system: str = "swiss", rounds: int,
                   time_control: str = "", rated: bool = True, max_players: int = 64,
                   table_size: int | None = None, options: dict[str, Any] | None = None,
                   every_hours: int = 24, lead_minutes: int = 30,
                   duration: int | None = None, round_pause: int | None = None
                   ) -> dict[str, Any]:
    """A schedule's settings checked by the tournaments' own rules
    (`services.check_tournament`, on the name as the largest sample fills it in) and its
    period's: the tournament fields as stored, or a TournamentError in words. A Swiss or
    an arena (`duration` minutes, a live time control, a two-seat game); a Swiss's
    `round_pause` (None: the default)."""
    if system not in Tournament.System.values:
        raise TournamentError(f"no tournament system {system!r}")
    if not 1 <= every_hours <= MAX_EVERY_HOURS:
        raise TournamentError(f"every 1 to {MAX_EVERY_HOURS} hours")
    if not 0 <= lead_minutes <= MAX_LEAD_MINUTES or lead_minutes >= every_hours * 60:
        raise TournamentError("the start comes 0 minutes to a day after the announcement, "
                              "and before the next one")
    try:
        sample = tournament_name(name, dt.datetime(2026, 12, 6, 18, tzinfo=dt.UTC), 100)
    except ValueError as e:
        raise TournamentError(str(e)) from None
    fields = services.check_tournament(
        name=sample, game_type=game_type, rounds=rounds, time_control=time_control,
        rated=rated, max_players=max_players, table_size=table_size, options=options,
        system=system, duration=duration, round_pause=round_pause)
    fields.pop("name")
    return fields


def create_due(now: dt.datetime | None = None) -> list[str]:
    """The beat's part for schedules: each due schedule's tournament, once. What was made,
    in words, for the log."""
    now = now or timezone.now()
    due = Schedule.objects.filter(active=True, next_at__lte=now).values_list("pk", flat=True)
    done = []
    for pk in list(due):
        try:
            made = create_next(pk, now)
        except Exception:  # one schedule's failure must not stop the rest
            log.exception("schedule %s could not make its tournament", pk)
            continue
        if made is not None:
            done.append(f"schedule {pk}: {made.id} announced")
    return done


def _locked(pk: int) -> Schedule | None:
    """Inside a transaction: the schedule, held until it ends; None if another process
    holds it now (PostgreSQL's advisory lock) or there is none."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)",
                           [SCHEDULE_LOCK_CLASS, pk])
            if not cursor.fetchone()[0]:
                return None
    return Schedule.objects.select_for_update().filter(pk=pk).first()


def create_next(pk: int, now: dt.datetime | None = None) -> Tournament | None:
    """The schedule's tournament for the current period, if due and not yet made; `next_at`
    moved to the next period in the same transaction. None if not due (or held)."""
    now = now or timezone.now()
    with transaction.atomic():
        schedule = _locked(pk)
        if schedule is None or not schedule.active or schedule.next_at > now:
            return None
        period = dt.timedelta(hours=schedule.every_hours)
        missed = (now - schedule.next_at) // period  # whole periods skipped after downtime
        announced = schedule.next_at + missed * period
        if missed:
            log.warning("schedule %s skipped %s period(s)", pk, missed)
        lead = dt.timedelta(minutes=schedule.lead_minutes)
        starts_at = announced + lead if announced + lead > now else now + lead
        number = schedule.made + 1
        tournament = services.create_tournament(
            name=tournament_name(schedule.name, starts_at, number)[:services.NAME_LENGTH],
            game_type=schedule.game_type, rounds=schedule.rounds, starts_at=starts_at,
            time_control=schedule.time_control, rated=schedule.rated,
            max_players=schedule.max_players, table_size=schedule.table_size,
            options=schedule.options, system=schedule.system, duration=schedule.duration,
            round_pause=schedule.round_pause)
        schedule.next_at = announced + period
        schedule.made = number
        schedule.last = tournament
        schedule.save(update_fields=["next_at", "made", "last"])
        return tournament
