"""Two beat processes' ticks at once announce a schedule's tournament once: the schedule's
advisory lock lets one in, and the other (or one that waited on the row) finds `next_at`
moved on. PostgreSQL only (SQLite has one writer and one process)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.utils import timezone

from tests.tournaments.at_once import twice_at_once
from tournaments import schedules
from tournaments.models import Schedule, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="needs PostgreSQL: two connections and its advisory locks"),
]


def test_two_ticks_at_once_announce_one_tournament_per_period():
    now = timezone.now()
    s = Schedule.objects.create(name="Hourly {time}", game_type="cargo-connect", rounds=3,
                                options={"size": 5}, every_hours=1,
                                next_at=now - dt.timedelta(seconds=1))
    answers = twice_at_once(lambda: schedules.create_due(now))
    t = Tournament.objects.get()
    assert sorted(map(str, answers)) == sorted(["[]", f"['schedule {s.pk}: {t.id} announced']"])
    s.refresh_from_db()
    assert s.made == 1 and s.next_at > now
