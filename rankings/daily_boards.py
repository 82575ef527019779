"""The Daily Challenge's boards on /rankings/: the context of the board section (a Pacific
month, a difficulty, one page of the board, the signed-in member's rank and the rows around
it), shown as the "Daily Challenge" tab of /rankings/ (rankings.tabs)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django.http import Http404, HttpRequest
from django.utils import timezone

from . import monthly as boards

PACIFIC = ZoneInfo("America/Los_Angeles")
DIFFICULTIES = (("easy", "Easy"), ("medium", "Medium"), ("hard", "Hard"))
PAGE = 50


def _this_month() -> dt.date:
    return timezone.now().astimezone(PACIFIC).date().replace(day=1)


def _month(value: str | None) -> dt.date:
    current = _this_month()
    if not value:
        return current
    try:
        month = dt.date.fromisoformat(f"{value}-01")
    except ValueError:
        raise Http404("a month is yyyy-mm") from None
    if month > current:
        raise Http404("that month has not started yet")
    return month


def board_context(request: HttpRequest) -> dict[str, Any]:
    """`?month=yyyy-mm&level=easy&page=2`: the board section's context."""
    month = _month(request.GET.get("month"))
    level = request.GET.get("level", "easy")
    if level not in dict(DIFFICULTIES):
        raise Http404("no such difficulty")
    try:
        number = max(1, int(request.GET.get("page", "1")))
    except ValueError:
        number = 1
    me = request.user.pk if request.user.is_authenticated else None
    total = boards.size_of_board(month, level)
    rows = boards.page(month, level, offset=(number - 1) * PAGE, limit=PAGE, me=me)
    my_rank, near = boards.around(me, month, level) if me is not None else (None, [])
    previous = (month - dt.timedelta(days=1)).replace(day=1)
    following = (month + dt.timedelta(days=32)).replace(day=1)
    return {
        "board_month": month,
        "board_level": level,
        "board_level_label": dict(DIFFICULTIES)[level],
        "board_levels": DIFFICULTIES,
        "board_rows": rows,
        "board_total": total,
        "board_page": number,
        "board_pages": max(1, -(-total // PAGE)),
        "board_my_rank": my_rank,
        "board_near": [] if any(r.mine for r in rows) else near,
        "board_previous": previous,
        "board_next": following if following <= _this_month() else None,
    }
