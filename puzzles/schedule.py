"""The weeks: which puzzle is on which Pacific day, drafting weeks from the generator,
publishing them, and the automatic week when Monday comes without a published one.

Days are the site's days (`common.timezones.pacific_today`, SITE_DAY_TZ). A day's puzzle
is served from its day on: missed days of a week stay open, later days are refused (404)
until they come, and past weeks stay playable.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.db import IntegrityError, transaction
from django.utils import timezone

from common.timezones import pacific_today
from engine.generator import week as generate_week

from .models import DAY_NAMES, Puzzle, Week
from .records import parse
from .validation import problems, record_generated

log = logging.getLogger(__name__)


class ScheduleError(Exception):
    """A week that cannot be drafted or published; `problems` lists why."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def today() -> dt.date:
    """The site's date now (tests replace this)."""
    return pacific_today()


def monday_of(date: dt.date) -> dt.date:
    return date - dt.timedelta(days=date.weekday())


def is_open(date: dt.date) -> bool:
    """A day's puzzle may be served: its day has come."""
    return date <= today()


def published_puzzle(date: dt.date) -> Puzzle | None:
    """The puzzle of `date` in a published week, whether or not its day has come."""
    return (Puzzle.objects.select_related("week")
            .filter(week__monday=monday_of(date), week__status=Week.Status.PUBLISHED,
                    day=date.weekday()).first())


# --- checking and publishing ----------------------------------------------------------------


def week_problems(week: Week) -> list[str]:
    """Every reason `week` cannot go live: a gap, an invalid puzzle, a puzzle used before."""
    out = []
    if week.monday.weekday() != 0:
        out.append(f"{week.monday} is a {DAY_NAMES[week.monday.weekday()]}, not a Monday")
    by_day = {p.day: p for p in week.puzzles.all()}
    earlier = set(Puzzle.objects.filter(week__status=Week.Status.PUBLISHED,
                                        week__monday__lt=week.monday)
                  .values_list("fingerprint", flat=True))
    seen: dict[str, int] = {}
    for day, name in enumerate(DAY_NAMES):
        puzzle = by_day.get(day)
        if puzzle is None:
            out.append(f"{name} has no puzzle")
            continue
        out += [f"{name} (puzzle {puzzle.pk}): {p}" for p in problems(puzzle, day)]
        if puzzle.fingerprint in earlier:
            out.append(f"{name} (puzzle {puzzle.pk}): already used in an earlier week")
        if puzzle.fingerprint in seen:
            out.append(f"{name} (puzzle {puzzle.pk}): the same puzzle as "
                       f"{DAY_NAMES[seen[puzzle.fingerprint]]}")
        seen[puzzle.fingerprint] = day
    return out


def publish(week: Week, *, automatic: bool = False) -> Week:
    """Put `week` live, or raise ScheduleError listing every problem (nothing changes)."""
    with transaction.atomic():
        week = Week.objects.select_for_update().get(pk=week.pk)
        if week.published:
            raise ScheduleError([f"{week} is already published"])
        found = week_problems(week)
        if found:
            raise ScheduleError(found)
        week.status = Week.Status.PUBLISHED
        week.published_at = timezone.now()
        week.automatic = automatic
        week.save()
    return week


# --- drafting from the generator ------------------------------------------------------------


def draft_week(monday: dt.date, seed: int = 1) -> tuple[Week, list[int]]:
    """A draft week for `monday` with a generated puzzle on every day that has none.

    Returns the week and the days filled. Generated puzzles come proven (the generator
    solves each again) and are kept only if not used in an earlier published week; a day
    whose puzzle was used is generated again with the next seed (up to 5 seeds).
    """
    if monday.weekday() != 0:
        raise ScheduleError([f"{monday} is a {DAY_NAMES[monday.weekday()]}, not a Monday"])
    with transaction.atomic():
        week, _ = Week.objects.get_or_create(monday=monday)
        week = Week.objects.select_for_update().get(pk=week.pk)
        if week.published:
            raise ScheduleError([f"{week} is published: its puzzles can no longer change"])
        return week, _fill(week, seed)


def _fill(week: Week, seed: int) -> list[int]:
    missing = set(range(7)) - {p.day for p in week.puzzles.all()}
    used = set(Puzzle.objects.filter(week__status=Week.Status.PUBLISHED)
               .values_list("fingerprint", flat=True))
    filled = []
    for attempt in range(5):
        if not missing:
            break
        for i, (_, gen) in enumerate(generate_week(week.monday.isoformat(), seed + attempt)):
            if i not in missing:
                continue
            parts = parse(gen.record)
            puzzle = Puzzle(start=parts.start, goal=parts.goal, turns=parts.turns, week=week,
                            day=i, source=Puzzle.Source.GENERATED,
                            note=f"Generated for {week.monday} with seed {seed + attempt} "
                                 f"(interest {gen.interest}).")
            puzzle.save()
            if puzzle.fingerprint in used:
                puzzle.delete()
                continue
            record_generated(puzzle, gen)
            used.add(puzzle.fingerprint)
            missing.discard(i)
            filled.append(i)
    if missing:
        raise ScheduleError([f"the generator found no unused puzzle for "
                             f"{', '.join(DAY_NAMES[d] for d in sorted(missing))}"])
    return sorted(filled)


# --- the automatic week ---------------------------------------------------------------------


def ensure_week(monday: dt.date, seed: int = 1) -> Week:
    """The published week of `monday`; if there is none, generate one and publish it.

    This is the fallback that keeps every day filled: Celery beat calls it for the current
    week (`puzzles.ensure_week`) and the Puzzles pages call it too. A curator's unpublished
    draft is left as it was, but its puzzles are taken off the week (kept, unscheduled, in
    the admin) so that the generated puzzles take the days.
    """
    week = Week.objects.filter(monday=monday, status=Week.Status.PUBLISHED).first()
    if week is not None:
        return week
    try:
        with transaction.atomic():
            week, _ = Week.objects.get_or_create(monday=monday)
            week = Week.objects.select_for_update().get(pk=week.pk)
            if week.published:
                return week
            kept = list(week.puzzles.values_list("pk", flat=True))
            if kept:
                Puzzle.objects.filter(pk__in=kept).update(week=None, day=None)
            _fill(week, seed)
            week.status = Week.Status.PUBLISHED
            week.published_at = timezone.now()
            week.automatic = True
            week.note = (week.note + "\n" if week.note else "") + (
                f"Published automatically at {timezone.now():%Y-%m-%d %H:%M} UTC: no curated "
                f"week was published." + (f" Draft puzzles {kept} were unscheduled." if kept
                                          else ""))
            problems_found = week_problems(week)
            if problems_found:  # the generator proves its puzzles: this would be a bug
                raise ScheduleError(problems_found)
            week.save()
    except IntegrityError:  # another process made the week at the same moment
        return Week.objects.get(monday=monday)
    log.warning("puzzles: no curated week was published for %s; published a generated one "
                "(week %s)", monday, week.pk)
    return week


def current_week() -> Week:
    return ensure_week(monday_of(today()))
