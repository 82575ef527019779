"""Weekly Puzzles: puzzles, the weeks they are scheduled in, and members' progress.

A `Puzzle` is a puzzle record's three parts (its Start position, goal and turn limit) plus
what the solver last proved about exactly those three (`fingerprint` says which): the fewest
turns, whether it needs a card, one solution line, the proof's nodes and seconds. Changing
the position, goal or limit sends it back to unvalidated (`Puzzle.save`). A puzzle is
scheduled by being given a `Week` and a day (0 = Monday .. 6 = Sunday); a week is a draft
until it is published (by a curator, or by the site itself when Monday comes without one).

`AttemptReview` is the solver's review of one finished attempt, shared by its key.

`Progress` is a member's record of one puzzle: attempts, whether and when it was solved, in
how many attempts and with which line, and whether the solution had been shown first. Guests'
progress stays in their browser (docs/puzzles-site.md). Nothing here counts anywhere else.
"""

from __future__ import annotations

import datetime as dt
import hashlib

from django.conf import settings
from django.db import models

DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def fingerprint(start: str, goal: str, turns: int) -> str:
    """What identifies a puzzle: its Start, goal and limit (sha256, hex)."""
    return hashlib.sha256(f"{start}|{goal}|{turns}".encode()).hexdigest()


class Week(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft"
        PUBLISHED = "published"

    monday = models.DateField(unique=True, help_text="The week's Monday (a Pacific date).")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(null=True, blank=True)
    automatic = models.BooleanField(
        default=False, help_text="Published by the site itself: no curated week was ready.")
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-monday"]

    def __str__(self) -> str:
        return f"Week of {self.monday:%a %d %b %Y}"

    @property
    def published(self) -> bool:
        return self.status == self.Status.PUBLISHED

    def date_of(self, day: int) -> dt.date:
        return self.monday + dt.timedelta(days=day)


class Puzzle(models.Model):
    class Validation(models.TextChoices):
        UNVALIDATED = "unvalidated"
        RUNNING = "running"  # a proof is running in Celery
        VALID = "valid"  # solvable in exactly its limit, never fewer
        INVALID = "invalid"

    class Source(models.TextChoices):
        CURATED = "curated"
        GENERATED = "generated"

    start = models.TextField(help_text="The Start position, in the notation.")
    goal = models.CharField(max_length=16, help_text="unload:X, score:K or appcons:K")
    turns = models.PositiveSmallIntegerField(help_text="The turn limit.")
    size = models.PositiveSmallIntegerField(editable=False)
    rules = models.CharField(max_length=8, editable=False)
    fingerprint = models.CharField(max_length=64, editable=False, db_index=True)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.CURATED)
    note = models.TextField(blank=True, help_text="For curators; never shown to players.")

    week = models.ForeignKey(Week, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="puzzles")
    day = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=list(enumerate(DAY_NAMES)))

    # What the solver proved about `validated_fingerprint` (the fingerprint it ran on).
    validation = models.CharField(max_length=12, choices=Validation.choices,
                                  default=Validation.UNVALIDATED)
    validated_fingerprint = models.CharField(max_length=64, blank=True, editable=False)
    validation_error = models.TextField(blank=True)
    validated_at = models.DateTimeField(null=True, blank=True)
    fewest = models.PositiveSmallIntegerField(null=True, blank=True)
    needs_card = models.BooleanField(null=True, blank=True)
    solution = models.CharField(max_length=200, blank=True, help_text="One shortest line.")
    proof_nodes = models.PositiveIntegerField(null=True, blank=True)
    proof_seconds = models.FloatField(null=True, blank=True)
    task_id = models.CharField(max_length=64, blank=True, editable=False)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["week__monday", "day", "id"]
        constraints = [
            models.UniqueConstraint(fields=["week", "day"], name="puzzles_one_puzzle_a_day"),
            models.CheckConstraint(condition=models.Q(day__isnull=True) | models.Q(day__lte=6),
                                   name="puzzles_day_of_week"),
        ]

    def __str__(self) -> str:
        where = (f"{DAY_NAMES[self.day]} {self.week.date_of(self.day):%d %b %Y}"
                 if self.week and self.day is not None else "unscheduled")
        return f"Puzzle {self.pk} ({self.size}×{self.size}, {self.goal} in {self.turns}; {where})"

    def save(self, *args: object, **kwargs: object) -> None:
        fields = self.start.split()
        self.size = fields[0].count("/") + 1 if fields else 0
        self.rules = fields[-1] if fields else ""
        self.fingerprint = fingerprint(self.start, self.goal, self.turns)
        if self.validated_fingerprint != self.fingerprint:
            self.forget_proof()
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def forget_proof(self) -> None:
        """Back to unvalidated: the proof was about another position, goal or limit."""
        self.validation = self.Validation.UNVALIDATED
        self.validated_fingerprint = ""
        self.validation_error = ""
        self.validated_at = None
        self.fewest = None
        self.needs_card = None
        self.solution = ""
        self.proof_nodes = None
        self.proof_seconds = None
        self.task_id = ""

    @property
    def date(self) -> dt.date | None:
        if self.week is None or self.day is None:
            return None
        return self.week.date_of(self.day)

    @property
    def record(self) -> str:
        """The puzzle record in the notation (no turns)."""
        return (f'[Size "{self.size}"]\n[Rules "{self.rules}"]\n[Start "{self.start}"]\n'
                f'[Goal "{self.goal}"]\n[Turns "{self.turns}"]\n')


class Progress(models.Model):
    """A member's attempts at one puzzle (guests keep theirs in the browser)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="puzzle_progress")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="progress")
    attempts = models.PositiveIntegerField(default=0)
    solved_at = models.DateTimeField(null=True, blank=True)
    solved_in = models.PositiveIntegerField(null=True, blank=True,
                                            help_text="Attempts it took, the solving one included.")
    line = models.CharField(max_length=200, blank=True, help_text="The solving attempt's turns.")
    shown_at = models.DateTimeField(null=True, blank=True,
                                    help_text="When the solution line was first shown.")
    unaided = models.BooleanField(
        default=False, help_text="Solved before the solution was shown: only these count in "
                                 "its figures.")
    merged = models.BooleanField(default=False, help_text="Includes progress merged from a "
                                                          "browser's guest storage.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "progress entry"  # Django's default plural was "progresss"
        verbose_name_plural = "progress entries"
        constraints = [
            models.UniqueConstraint(fields=["user", "puzzle"], name="puzzles_progress_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} on puzzle {self.puzzle_id}"

    @property
    def solved(self) -> bool:
        return self.solved_at is not None


class AttemptReview(models.Model):
    """The review of one finished attempt at a puzzle (docs/puzzles-site.md): the solver's
    verdict on each of its turns and the turn that lost the puzzle, with its reason and
    boards (`engine.puzzle_review.review_puzzle`). The same attempt (puzzle and turns)
    always gets the same review, so it is made once and shared by its `key`
    (`/puzzles/review/<key>`); it is made again when the engine's `PUZZLE_REVIEW_VERSION`
    changes."""

    class Outcome(models.TextChoices):
        SOLVED = "solved"
        OUT_OF_TURNS = "out_of_turns", "out of turns"

    key = models.CharField(primary_key=True, max_length=16, editable=False)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="reviews")
    line = models.CharField(max_length=200, help_text="The attempt's turns, in order.")
    outcome = models.CharField(max_length=12, choices=Outcome.choices)
    version = models.CharField(max_length=16)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["puzzle", "line"],
                                    name="puzzles_one_review_an_attempt"),
        ]

    def __str__(self) -> str:
        return f"Review {self.key} of puzzle {self.puzzle_id}: {self.line}"

    @property
    def tokens(self) -> list[str]:
        return self.line.split()
