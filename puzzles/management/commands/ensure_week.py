"""``manage.py ensure_week``: publish a generated week now if the current Pacific week has
none (what Celery beat's `puzzles.ensure_week` does every five minutes)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from puzzles import schedule


class Command(BaseCommand):
    help = "Make sure the current week of Weekly Puzzles is published (generated if needed)."

    def handle(self, *args: Any, **options: Any) -> None:
        week = schedule.current_week()
        how = "published automatically (generated)" if week.automatic else "curated"
        self.stdout.write(f"{week}: {how}.")
