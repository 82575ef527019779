"""Recurring tournaments: the tick announces each due schedule's tournament once per
period, skips the periods missed after downtime, and the admin's form refuses what
`create_tournament` would (docs/tournaments.md, "Schedules")."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tournaments import schedules, services
from tournaments.admin import ScheduleForm
from tournaments.models import Schedule, Tournament

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 12, 6, 18, 0, 5, tzinfo=dt.UTC)


def schedule(**kw) -> Schedule:
    fields = {"name": "Hourly Connect {time}", "game_type": "cargo-connect", "rounds": 3,
              "options": {"size": 5}, "every_hours": 1, "lead_minutes": 30,
              "next_at": NOW - dt.timedelta(seconds=5)}
    fields.update(kw)
    return Schedule.objects.create(**fields)


def test_a_due_schedule_announces_one_tournament_and_moves_on():
    s = schedule()
    done = schedules.create_due(NOW)
    t = Tournament.objects.get()
    assert done == [f"schedule {s.pk}: {t.id} announced"]
    assert t.name == "Hourly Connect 18:30" and t.created_by is None
    assert t.starts_at == dt.datetime(2026, 12, 6, 18, 30, tzinfo=dt.UTC)
    assert t.status == Tournament.Status.SCHEDULED and t.options == {"size": 5}
    s.refresh_from_db()
    assert s.next_at == dt.datetime(2026, 12, 6, 19, tzinfo=dt.UTC)
    assert (s.made, s.last_id) == (1, t.id)
    # the same tick again, or a later one within the period: nothing more
    assert schedules.create_due(NOW) == []
    assert schedules.create_due(NOW + dt.timedelta(minutes=59)) == []
    assert schedules.create_next(s.pk, NOW) is None
    assert Tournament.objects.count() == 1
    # the next period
    assert len(schedules.create_due(NOW + dt.timedelta(hours=1))) == 1
    assert Tournament.objects.count() == 2
    s.refresh_from_db()
    assert s.made == 2 and s.next_at == dt.datetime(2026, 12, 6, 20, tzinfo=dt.UTC)


def test_after_downtime_only_the_current_period_is_made():
    s = schedule(next_at=NOW - dt.timedelta(hours=5, minutes=10), name="Connect #{n}")
    assert len(schedules.create_due(NOW)) == 1
    t = Tournament.objects.get()
    assert t.name == "Connect #1"
    # the current period was announced at 17:50:05: its start (18:20:05) is ahead
    assert t.starts_at == dt.datetime(2026, 12, 6, 18, 20, 5, tzinfo=dt.UTC)
    s.refresh_from_db()
    assert s.next_at == dt.datetime(2026, 12, 6, 18, 50, 5, tzinfo=dt.UTC)


def test_a_start_already_past_is_moved_to_lead_minutes_from_now():
    schedule(next_at=NOW - dt.timedelta(minutes=40))
    schedules.create_due(NOW)
    assert Tournament.objects.get().starts_at == NOW + dt.timedelta(minutes=30)


def test_inactive_and_future_schedules_make_nothing():
    schedule(active=False)
    schedule(next_at=NOW + dt.timedelta(seconds=1))
    assert schedules.create_due(NOW) == []
    assert not Tournament.objects.exists()


def test_a_schedule_gone_bad_is_logged_and_the_others_go_on(caplog):
    bad = schedule(game_type="no-such-game")
    good = schedule()
    done = schedules.create_due(NOW)
    assert done == [f"schedule {good.pk}: {Tournament.objects.get().id} announced"]
    bad.refresh_from_db()
    assert bad.made == 0 and bad.next_at < NOW  # nothing written for it
    assert "could not make its tournament" in caplog.text


@pytest.mark.parametrize(("change", "words"), [
    ({"name": "Daily {when}"}, "{date}, {time} and {n} only"),
    ({"name": "{"}, "{date}, {time} and {n} only"),
    ({"name": "x" * 81}, "a name of 1 to 80"),
    ({"game_type": "chess"}, "unknown game type"),
    ({"rounds": 0}, "1 to 15 rounds"),
    ({"time_control": "soon"}, ""),
    ({"table_size": 3}, "tables of 2"),
    ({"every_hours": 0}, "every 1 to"),
    ({"lead_minutes": 60}, "before the next one"),
    ({"system": "arena"}, "an arena lasts"),  # an arena needs its minutes
    ({"system": "knockout"}, "no tournament system"),
])
def test_check_schedule_refuses_what_a_tournament_would(change, words):
    fields = {"name": "Daily {date}", "game_type": "cargo-connect", "rounds": 3,
              "options": {"size": 5}, "every_hours": 1, "lead_minutes": 30}
    fields.update(change)
    with pytest.raises(services.TournamentError, match=words or None):
        schedules.check_schedule(**fields)


def form_data(**kw) -> dict:
    data = {"name": "Express {date}", "game_type": "cargo-express", "system": "swiss",
            "rounds": 4, "time_control": "5+3", "options": "{}", "rated": "on",
            "table_size": "", "max_players": 32, "every_hours": 24, "lead_minutes": 60,
            "next_at": "2026-12-07 18:00:00", "active": "on"}
    data.update(kw)
    return data


def test_the_admin_form_saves_the_checked_settings():
    form = ScheduleForm(data=form_data())
    assert form.is_valid(), form.errors
    saved = form.save()
    assert saved.table_size == 4 and saved.time_control == "5+3"


def test_a_schedule_s_pause_between_rounds_goes_into_its_swiss():
    """The schedule's own pause (seconds) is the Swiss's `round_pause`; empty is the
    default of the clock (a minute live, none in correspondence)."""
    paused = schedule(round_pause=150, time_control="5+3")
    default = schedule(name="Daily {date}", time_control="5+3")
    slow = schedule(name="Slow {date}", time_control="3d")
    schedules.create_due(NOW)
    made = {s.pk: Schedule.objects.get(pk=s.pk).last for s in (paused, default, slow)}
    assert made[paused.pk].round_pause == 150
    assert made[default.pk].round_pause == services.ROUND_PAUSE
    assert made[slow.pk].round_pause == 0
    form = ScheduleForm(data=form_data(round_pause=90))
    assert form.is_valid(), form.errors
    assert form.save().round_pause == 90
    form = ScheduleForm(data=form_data(round_pause=601))
    assert not form.is_valid() and "pause between rounds" in str(form.errors)


def test_the_admin_form_refuses_in_the_services_words():
    form = ScheduleForm(data=form_data(table_size=2))
    assert not form.is_valid()
    assert "tables of 3 or 4" in str(form.errors)
    assert not Schedule.objects.exists()


def test_start_now_moves_a_scheduled_start_only():
    later = services.create_tournament(name="Later", game_type="cargo-connect", rounds=3,
                                       starts_at=timezone.now() + dt.timedelta(days=1),
                                       options={"size": 5})
    assert services.start_now(later, NOW)
    later.refresh_from_db()
    assert later.starts_at == NOW
    later.status = Tournament.Status.FINISHED
    later.save()
    assert not services.start_now(later, NOW + dt.timedelta(hours=1))
    later.refresh_from_db()
    assert later.starts_at == NOW
