"""The Daily Challenge's monthly boards: writing a ranked result (and taking a voided one
back), the board's pages, a member's rank, and how a scaled result is shown (`42 (+7)`).

One board per (Pacific month, difficulty) ranks each member's single best ranked game of
that month: higher scaled score first, then the larger scaled margin, then the earlier
finish. It is a maintained table (`DailyBoardEntry`, each member's best marked `best`) read
by one indexed query per page; a member's rank is one indexed count. Deactivated members
are filtered out in the query itself, so they leave every board at once (nothing cached).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import Q, QuerySet

from accounts.models import Player

from .models import DailyBoardEntry

SCALE_SIZE = 8  # scores are scaled to an 8×8 bay
ORDER = ("-scaled_score", "-scaled_margin", "finished_at", "id")
MINUS = "\u2212"


def scaled(points: int, size: int) -> float:
    """points × 64 ÷ size²."""
    return points * SCALE_SIZE * SCALE_SIZE / (size * size)


def rounded(value: float) -> int:
    """Half away from zero: 41.5 → 42, −3.5 → −4."""
    return int(Decimal(value).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def shown(score: float, margin: float) -> str:
    """`42 (+7)` for a win by 7, `31 (−4)` for a loss by 4, `20 (±0)` for a draw."""
    m = rounded(margin)
    sign = "+" if m > 0 else MINUS if m < 0 else "\u00b1"
    return f"{rounded(score)} ({sign}{abs(m)})"


def _key(entry: DailyBoardEntry) -> tuple[float, float, float, int]:
    """Sorts best first."""
    return (-entry.scaled_score, -entry.scaled_margin, entry.finished_at.timestamp(),
            entry.id or 0)


def _lock_member(user_id: int) -> None:
    """Serialise one member's board writes (their two games ending at once)."""
    Player.objects.get_or_create(user_id=user_id)
    Player.objects.select_for_update().filter(user_id=user_id).first()


def record(*, game_id: str, user_id: int, day: dt.date, difficulty: str, size: int,
           score: int, margin: int, finished_at: dt.datetime) -> DailyBoardEntry:
    """A ranked result onto its month's board (inside the transaction that records it).
    Recording the same game again changes nothing."""
    existing = DailyBoardEntry.objects.filter(game_id=game_id).first()
    if existing is not None:
        return existing
    _lock_member(user_id)
    entry = DailyBoardEntry.objects.create(
        game_id=game_id, user_id=user_id, month=day.replace(day=1), day=day,
        difficulty=difficulty, size=size, score=score, margin=margin,
        scaled_score=scaled(score, size), scaled_margin=scaled(margin, size),
        finished_at=finished_at)
    _choose_best(user_id, entry.month, difficulty)
    entry.refresh_from_db()
    return entry


def remove(game_id: str) -> None:
    """A voided game leaves its board; the member's next best game of the month takes its
    place."""
    entry = DailyBoardEntry.objects.filter(game_id=game_id).first()
    if entry is None:
        return
    _lock_member(entry.user_id)
    entry.delete()
    _choose_best(entry.user_id, entry.month, entry.difficulty)


def _choose_best(user_id: int, month: dt.date, difficulty: str) -> None:
    rows = list(DailyBoardEntry.objects.filter(user_id=user_id, month=month,
                                               difficulty=difficulty))
    if not rows:
        return
    best = min(rows, key=_key)
    stale = [r.id for r in rows if r.best and r.id != best.id]
    if stale:
        DailyBoardEntry.objects.filter(id__in=stale).update(best=False)
    if not best.best:
        DailyBoardEntry.objects.filter(id=best.id).update(best=True)


# --- reading the boards ----------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    rank: int
    username: str
    user_id: int
    day: dt.date
    score: int
    margin: int
    size: int
    shown: str
    game_id: str
    mine: bool


def _board(month: dt.date, difficulty: str) -> QuerySet[DailyBoardEntry]:
    return DailyBoardEntry.objects.filter(month=month, difficulty=difficulty, best=True,
                                          user__is_active=True)


def _rows(entries: Any, first_rank: int, me: int | None) -> list[Row]:
    return [Row(rank=first_rank + i, username=e.user.get_username(), user_id=e.user_id,
                day=e.day, score=e.score, margin=e.margin, size=e.size,
                shown=shown(e.scaled_score, e.scaled_margin), game_id=e.game_id,
                mine=e.user_id == me)
            for i, e in enumerate(entries)]


def page(month: dt.date, difficulty: str, *, offset: int = 0, limit: int = 50,
         me: int | None = None) -> list[Row]:
    """Rows `offset`… of a board, in order (one query)."""
    entries = _board(month, difficulty).select_related("user").order_by(*ORDER)
    return _rows(entries[offset:offset + limit], offset + 1, me)


def size_of_board(month: dt.date, difficulty: str) -> int:
    return _board(month, difficulty).count()


def rank_of(user_id: int, month: dt.date, difficulty: str) -> int | None:
    """The member's rank on a board (None: not on it)."""
    mine = _board(month, difficulty).filter(user_id=user_id).first()
    if mine is None:
        return None
    better = (Q(scaled_score__gt=mine.scaled_score)
              | Q(scaled_score=mine.scaled_score, scaled_margin__gt=mine.scaled_margin)
              | Q(scaled_score=mine.scaled_score, scaled_margin=mine.scaled_margin,
                  finished_at__lt=mine.finished_at)
              | Q(scaled_score=mine.scaled_score, scaled_margin=mine.scaled_margin,
                  finished_at=mine.finished_at, id__lt=mine.id))
    return _board(month, difficulty).filter(better).count() + 1


def around(user_id: int, month: dt.date, difficulty: str, *, spread: int = 2
           ) -> tuple[int | None, list[Row]]:
    """The member's rank and the rows around it (`spread` either side)."""
    rank = rank_of(user_id, month, difficulty)
    if rank is None:
        return None, []
    offset = max(0, rank - 1 - spread)
    return rank, page(month, difficulty, offset=offset, limit=2 * spread + 1, me=user_id)


def result_of(game_id: str) -> DailyBoardEntry | None:
    return DailyBoardEntry.objects.filter(game_id=game_id).first()
