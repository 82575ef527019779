"""Celery tasks of the Weekly Puzzles: long proofs, and the automatic week.

`prove(puzzle_id, fingerprint)` proves a puzzle for the admin and writes its figures back
(nothing if the puzzle changed since it was asked). `ensure_week` runs from Celery beat
(CELERY_BEAT_SCHEDULE) and publishes a generated week when Monday has come without one.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.utils import timezone

from . import schedule, validation
from .models import Puzzle

log = logging.getLogger(__name__)

PROOF_SOFT_TIME_LIMIT = 600  # seconds; the slowest 8×8 four-turn proof measured takes 0.1 s
PROOF_TIME_LIMIT = 660


@shared_task(name="puzzles.prove", acks_late=True, soft_time_limit=PROOF_SOFT_TIME_LIMIT,
             time_limit=PROOF_TIME_LIMIT, ignore_result=True)
def prove(puzzle_id: int, fingerprint: str) -> str:
    """Prove puzzle `puzzle_id` as it was when asked (its `fingerprint`)."""
    try:
        return validation.run_task(puzzle_id, fingerprint)
    except SoftTimeLimitExceeded:
        with transaction.atomic():
            puzzle = Puzzle.objects.order_by().select_for_update().filter(pk=puzzle_id).first()
            if puzzle is not None and puzzle.fingerprint == fingerprint:
                puzzle.validation = Puzzle.Validation.INVALID
                puzzle.validated_fingerprint = fingerprint
                puzzle.validated_at = timezone.now()
                puzzle.validation_error = (f"the proof took longer than "
                                           f"{PROOF_SOFT_TIME_LIMIT} s and was stopped")
                puzzle.save()
        log.warning("proof of puzzle %s stopped after %s s", puzzle_id, PROOF_SOFT_TIME_LIMIT)
        return "timeout"


@shared_task(name="puzzles.ensure_week", acks_late=True, soft_time_limit=240, time_limit=300,
             ignore_result=True)
def ensure_week() -> str:
    """The current Pacific week, published (generated if no curated week was)."""
    week = schedule.current_week()
    return f"{week.monday} {'automatic' if week.automatic else 'curated'}"
