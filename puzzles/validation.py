"""Proving puzzles with the engine's solver, and what keeps a puzzle off a day.

`validate(puzzle)` proves a puzzle: short proofs (bays up to 6×6 and limits up to 2 turns,
which take milliseconds) run at once; longer ones are sent to Celery (`puzzles.prove`) and the
puzzle shows "running" until the task writes its figures back. A proof is about one
fingerprint (Start, goal, limit): a task whose puzzle was edited meanwhile writes nothing.

`problems(puzzle, day)` lists every reason a puzzle cannot be published on a day: not
proven, not solvable in exactly its limit, solvable without a card on a weekend day, the
wrong size or limit for the day.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from common.queue import enqueue
from engine import EngineError
from engine.generator import Generated
from engine.solver import Solution, solve

from .models import DAY_NAMES, Puzzle, fingerprint
from .records import WEEK_SCHEDULE, schedule_problems

log = logging.getLogger(__name__)


def is_long(puzzle: Puzzle) -> bool:
    """Proofs that go to Celery: 7×7 and 8×8 bays, and limits of 3 turns or more."""
    return puzzle.size >= 7 or puzzle.turns >= 3


def validate(puzzle: Puzzle, *, background: bool | None = None) -> str:
    """Prove `puzzle` now or in Celery; returns "valid", "invalid" or "running"."""
    if background is None:
        background = is_long(puzzle)
    if not background:
        record_proof(puzzle, prove(puzzle))
        return puzzle.validation
    puzzle.forget_proof()
    puzzle.fingerprint = fingerprint(puzzle.start, puzzle.goal, puzzle.turns)
    puzzle.validated_fingerprint = puzzle.fingerprint  # "running" is about this fingerprint
    puzzle.validation = Puzzle.Validation.RUNNING
    puzzle.save()
    pk, fp = puzzle.pk, puzzle.fingerprint
    transaction.on_commit(lambda: enqueue("puzzles.prove", pk, fp))
    return puzzle.validation


def prove(puzzle: Puzzle) -> Solution | str:
    """The solver's answer for the puzzle's record, or the engine's error message."""
    try:
        return solve(puzzle.record)
    except EngineError as e:
        return str(e)


def record_proof(puzzle: Puzzle, sol: Solution | str) -> None:
    """Write a proof's outcome and figures on the puzzle (about its current fingerprint)."""
    puzzle.forget_proof()
    puzzle.fingerprint = fingerprint(puzzle.start, puzzle.goal, puzzle.turns)
    puzzle.validated_fingerprint = puzzle.fingerprint
    puzzle.validated_at = timezone.now()
    if isinstance(sol, str):
        puzzle.validation = Puzzle.Validation.INVALID
        puzzle.validation_error = sol
        puzzle.save()
        return
    puzzle.fewest = sol.fewest
    puzzle.needs_card = sol.needs_card if sol.solvable else None
    puzzle.solution = " ".join(sol.line or [])
    puzzle.proof_nodes = sol.nodes
    puzzle.proof_seconds = round(sol.seconds, 4)
    if sol.valid:
        puzzle.validation = Puzzle.Validation.VALID
    else:
        puzzle.validation = Puzzle.Validation.INVALID
        limit = puzzle.turns
        if sol.fewest is None:
            puzzle.validation_error = f"not solvable within its limit of {limit} turn(s)"
        else:
            puzzle.validation_error = (f"solvable in {sol.fewest} turn(s), fewer than its limit "
                                       f"of {limit}")
    puzzle.save()


def run_task(puzzle_id: int, fp: str) -> str:
    """The Celery task's body: prove the puzzle if it is still what was asked about."""
    with transaction.atomic():
        puzzle = Puzzle.objects.order_by().select_for_update().filter(pk=puzzle_id).first()
        if puzzle is None or puzzle.fingerprint != fp:
            log.info("proof of puzzle %s skipped: deleted or edited since it was asked", puzzle_id)
            return "stale"
    sol = prove(puzzle)
    with transaction.atomic():
        puzzle = Puzzle.objects.order_by().select_for_update().get(pk=puzzle_id)
        if puzzle.fingerprint != fp:
            return "stale"
        record_proof(puzzle, sol)
        log.info("proof of puzzle %s: %s (%s nodes, %.3f s)", puzzle_id, puzzle.validation,
                 puzzle.proof_nodes, puzzle.proof_seconds or 0.0)
        return str(puzzle.validation)


def record_generated(puzzle: Puzzle, gen: Generated) -> None:
    """A generated puzzle comes with the generator's proof: keep its figures."""
    record_proof(puzzle, gen.solution)


def problems(puzzle: Puzzle, day: int | None) -> list[str]:
    """Every reason the puzzle cannot go live on `day` (0 = Monday); [] if none."""
    out = []
    if puzzle.validation == Puzzle.Validation.UNVALIDATED:
        out.append("not validated yet")
    elif puzzle.validation == Puzzle.Validation.RUNNING:
        out.append("its proof is still running")
    elif puzzle.validation == Puzzle.Validation.INVALID:
        out.append(f"invalid: {puzzle.validation_error}")
    if day is None:
        return out
    out += schedule_problems(day, puzzle.size, puzzle.turns)
    if (WEEK_SCHEDULE[day].needs_card and puzzle.validation == Puzzle.Validation.VALID
            and not puzzle.needs_card):
        out.append(f"{DAY_NAMES[day]}'s puzzle must need a card: this one is solvable with "
                   f"drops only")
    return out
