"""``manage.py draft_week [--monday YYYY-MM-DD] [--seed S]``: a draft week from the generator.

Fills every day of that week (default: next week) that has no puzzle with a generated,
proven puzzle, for a curator to review, edit and publish in the admin. Prints each day's
puzzle with its proof's figures and the time the whole week took.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from puzzles import schedule
from puzzles.models import DAY_NAMES
from puzzles.records import goal_words


class Command(BaseCommand):
    help = "Draft a Weekly Puzzles week from the generator (fills the days without a puzzle)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--monday", type=dt.date.fromisoformat, default=None)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        monday = options["monday"] or schedule.monday_of(schedule.today()) + dt.timedelta(7)
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            week, filled = schedule.draft_week(monday, options["seed"])
        except schedule.ScheduleError as e:
            raise CommandError(str(e)) from None
        for p in week.puzzles.order_by("day"):
            mark = "generated" if p.day in filled else "kept"
            self.stdout.write(f"{DAY_NAMES[p.day or 0]:9} {p.size}×{p.size} "
                              f"{goal_words(p.goal, p.turns):32} {p.validation:8} "
                              f"{p.proof_nodes} nodes {p.proof_seconds} s ({mark})")
        self.stdout.write(f"{week}: {len(filled)} day(s) generated and proven in "
                          f"{time.process_time() - cpu:.2f} s CPU, "
                          f"{time.perf_counter() - wall:.2f} s wall. Problems: "
                          f"{'; '.join(schedule.week_problems(week)) or 'none'}.")
