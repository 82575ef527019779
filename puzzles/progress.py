"""Players' progress: members' attempts and solves on the server, guests' proofs of a solve,
the figures shown after solving, and merging a browser's guest progress into an account.

An attempt is counted when its first turn is accepted (a retry, or undoing back to the
Start and playing again, starts a new one). A puzzle is solved by the turn that meets its
goal, seen by the server. A guest's solve comes back with a `proof`, signed by the server,
that names the puzzle and the solving line; the browser keeps it with its own attempt count,
and a merge accepts only solves whose proof checks and whose line solves the puzzle.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core import signing
from django.db import transaction
from django.utils import timezone

from .models import DAY_NAMES, Progress, Puzzle
from .play import PlayError, replay

SALT = "puzzles.solved"


def progress_of(user: User, puzzle: Puzzle) -> Progress | None:
    return Progress.objects.filter(user=user, puzzle=puzzle).first()


def _locked(user: User, puzzle: Puzzle) -> Progress:
    Progress.objects.get_or_create(user=user, puzzle=puzzle)
    return Progress.objects.select_for_update().get(user=user, puzzle=puzzle)


def record_turn(user: User, puzzle: Puzzle, before: list[str], solved: bool,
                line: list[str]) -> Progress:
    """A member's turn was applied: count a new attempt, note a solve."""
    with transaction.atomic():
        progress = _locked(user, puzzle)
        if not before:
            progress.attempts += 1
        if solved and progress.solved_at is None:
            progress.attempts = max(progress.attempts, 1)
            progress.solved_at = timezone.now()
            progress.solved_in = progress.attempts
            progress.line = " ".join(line)
            progress.unaided = progress.shown_at is None
        progress.save()
    return progress


def record_shown(user: User, puzzle: Puzzle) -> Progress:
    """A member asked for the solution line (solves after this do not count in figures)."""
    with transaction.atomic():
        progress = _locked(user, puzzle)
        if progress.shown_at is None:
            progress.shown_at = timezone.now()
            progress.save()
    return progress


def member_summary(progress: Progress | None) -> dict[str, Any]:
    if progress is None:
        return {"attempts": 0, "solved": False, "solved_in": None, "shown": False}
    return {"attempts": progress.attempts, "solved": progress.solved,
            "solved_in": progress.solved_in, "shown": progress.shown_at is not None}


def state_word(summary: dict[str, Any]) -> str:
    """solved / tried / seen / new, from a progress summary: "tried" needs an attempt; a
    puzzle whose solution alone was viewed is "seen"."""
    if summary["solved"]:
        return "solved"
    if summary["attempts"]:
        return "tried"
    return "seen" if summary["shown"] else "new"


# --- figures after solving ------------------------------------------------------------------


def figures(puzzle: Puzzle) -> dict[str, Any]:
    """How many members solved it (before seeing the solution), in how many attempts, and
    the most common first turn among them."""
    rows = list(Progress.objects.filter(puzzle=puzzle, unaided=True, solved_at__isnull=False)
                .values_list("solved_in", "line"))
    attempts = Counter(n for n, _ in rows if n)
    firsts = Counter(line.split()[0] for _, line in rows if line)
    first, count = firsts.most_common(1)[0] if firsts else (None, 0)
    solvers = len(rows)
    return {
        "solvers": solvers,
        "attempts": sorted([n, c] for n, c in attempts.items()),
        "average_attempts": round(sum(n * c for n, c in attempts.items()) / solvers, 1)
        if solvers else None,
        "first_turn": first,
        "first_turn_share": round(100 * count / solvers) if solvers else None,
    }


# --- guests' proofs and the merge -----------------------------------------------------------


def guest_proof(puzzle: Puzzle, line: list[str], unaided: bool) -> str:
    return signing.dumps({"p": puzzle.pk, "l": line, "u": unaided}, salt=SALT, compress=True)


def read_proof(puzzle: Puzzle, proof: Any) -> tuple[list[str], bool] | None:
    """The solving line and "unaided" of a guest's proof of this puzzle, or None."""
    if not isinstance(proof, str) or len(proof) > 1000:
        return None
    try:
        data = signing.loads(proof, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("p") != puzzle.pk:
        return None
    line = data.get("l")
    if not isinstance(line, list):
        return None
    try:
        game = replay(puzzle, line)
    except PlayError:
        return None
    if not game.solved:
        return None
    return list(line), bool(data.get("u"))


@dataclass
class Change:
    """What merging one puzzle's guest progress would do to the account."""

    puzzle: Puzzle
    before: dict[str, Any]
    after: dict[str, Any]
    line: list[str]
    unaided: bool
    shown: bool

    def as_dict(self) -> dict[str, Any]:
        date = self.puzzle.date
        return {"puzzle": self.puzzle.pk, "date": date.isoformat() if date else None,
                "before": self.before, "after": self.after, "words": self.words()}

    def words(self) -> str:
        """What the merge does to this puzzle, naming only what changes:
        "Monday 2 March: 0 → 2 attempts; solved in 2 attempts"."""
        date = self.puzzle.date
        day = f"{DAY_NAMES[date.weekday()]} {date.day} {date:%B}" if date else \
            f"Puzzle {self.puzzle.pk}"
        parts = []
        b, a = self.before, self.after
        if a["attempts"] != b["attempts"]:
            parts.append(f"{b['attempts']} → {a['attempts']} attempt"
                         f"{'' if a['attempts'] == 1 else 's'}")
        if a["solved"] and not b["solved"]:
            n = a["solved_in"]
            parts.append(f"solved in {n} attempt{'' if n == 1 else 's'}")
        if a["shown"] and not b["shown"]:
            parts.append("the solution was seen")
        return f"{day}: {'; '.join(parts)}"


MAX_ENTRIES = 400


def merge_plan(user: User, entries: Any,
               open_puzzle: Any) -> tuple[list[Change], list[str]]:
    """What a merge of the browser's entries would change, and the entries refused.

    `entries` is a list of {"puzzle": id, "attempts": n, "solved_in": k or null,
    "proof": text or null, "shown": bool}; `open_puzzle(id)` is the puzzle if it may be
    played now, else None. Rules: attempts add up; a guest's solve (with a valid proof)
    marks an unsolved puzzle solved, in the account's attempts plus the guest's; an account's
    solve is never changed.
    """
    if not isinstance(entries, list) or len(entries) > MAX_ENTRIES:
        raise PlayError("bad_request", f"entries must be a list of at most {MAX_ENTRIES}")
    changes: list[Change] = []
    refused: list[str] = []
    seen = set()
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("puzzle"), int):
            refused.append("an entry without a puzzle id")
            continue
        pid = entry["puzzle"]
        puzzle = open_puzzle(pid)
        if puzzle is None or pid in seen:
            refused.append(f"puzzle {pid}: not a puzzle open to play")
            continue
        seen.add(pid)
        attempts = entry.get("attempts")
        if not isinstance(attempts, int) or not 0 <= attempts <= 10_000:
            refused.append(f"puzzle {pid}: attempts must be a whole number")
            continue
        proof = read_proof(puzzle, entry.get("proof")) if entry.get("proof") else None
        if entry.get("proof") and proof is None:
            refused.append(f"puzzle {pid}: its proof of solving does not check")
            continue
        solved_in = entry.get("solved_in")
        if proof is not None and (not isinstance(solved_in, int)
                                  or not 1 <= solved_in <= max(attempts, 1)):
            solved_in = max(attempts, 1)
        shown = bool(entry.get("shown"))
        before = member_summary(progress_of(user, puzzle))
        after = dict(before)
        after["attempts"] = before["attempts"] + attempts
        if proof is not None and not before["solved"]:
            after["solved"] = True
            after["solved_in"] = before["attempts"] + solved_in
            after["attempts"] = max(after["attempts"], after["solved_in"])
        after["shown"] = before["shown"] or shown
        if after == before:
            continue
        changes.append(Change(puzzle, before, after, proof[0] if proof else [],
                              bool(proof and proof[1]), shown))
    return changes, refused


def apply_merge(user: User, changes: list[Change]) -> None:
    with transaction.atomic():
        for change in changes:
            progress = _locked(user, change.puzzle)
            if member_summary(progress) != change.before:
                raise PlayError("conflict", "your progress changed meanwhile: review the merge "
                                "again", status=409)
            now = timezone.now()
            progress.attempts = change.after["attempts"]
            if change.after["shown"] and progress.shown_at is None:
                progress.shown_at = now
            if change.after["solved"] and progress.solved_at is None:
                progress.solved_at = now
                progress.solved_in = change.after["solved_in"]
                progress.line = " ".join(change.line)
                progress.unaided = change.unaided
            progress.merged = True
            progress.save()
