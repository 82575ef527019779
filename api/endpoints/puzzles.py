"""The Daily Challenge of today (its day, size, end, how many play it, and the asker's own
games of the day per difficulty, as its page shows them: `puzzles.daily.services`; never
the day's seed) and this week's Weekly Puzzles (a day to come tells nothing of its
puzzle: `puzzles.schedule.is_open`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest
from ninja import Router

from games.actors import Actor
from puzzles.daily import clock
from puzzles.daily import services as daily
from puzzles.models import DAY_NAMES, Week
from puzzles.schedule import is_open, monday_of, today

from .. import examples
from ..auth import bearer
from ..operations import endpoint
from ..schemas import DailyOut, WeekOut
from ..scopes import Scope
from .shapes import absolute, iso

router = Router(tags=["Puzzles"])


@router.get("/daily", operation_id="getDailyChallenge", **endpoint(
    Scope.READ, "Today's Daily Challenge",
    "Today's (Pacific) Daily Challenge: its board size, when it ends, how many members "
    "play it, and the asker's own games of the day at each difficulty.",
    DailyOut, examples.DAILY))
def daily_challenge(request: HttpRequest) -> dict[str, Any]:
    day = clock.today()
    mine = daily.standings(Actor.member(bearer(request).user), day)
    return {"day": day.isoformat(), "size": clock.size_of(day),
            "ends_at": iso(clock.day_end(day)), "players": daily.players_on(day),
            "url": absolute(request, "daily:today"),
            "you": [{"difficulty": s.difficulty, "state": s.state, "game_id": s.game_id,
                     "score": s.score, "bot_score": s.bot_score, "outcome": s.outcome,
                     "shown": s.shown} for s in mine]}


@router.get("/puzzles/week", operation_id="getWeekPuzzles", **endpoint(
    Scope.READ, "This week's puzzles",
    "The Weekly Puzzles of the current week (Monday to Sunday, Pacific): each day's "
    "puzzle once its day has come; a day to come says only that it is not open.",
    WeekOut, examples.WEEK))
def week(request: HttpRequest) -> dict[str, Any]:
    monday = monday_of(today())
    found = Week.objects.filter(monday=monday, status=Week.Status.PUBLISHED).first()
    puzzles = {p.day: p for p in found.puzzles.all()} if found is not None else {}
    rows = []
    for offset, name in enumerate(DAY_NAMES):
        date = monday + dt.timedelta(days=offset)
        puzzle = puzzles.get(offset)
        shown = puzzle is not None and is_open(date)
        rows.append({"date": date.isoformat(), "day": name, "open": is_open(date),
                     "url": absolute(request, "puzzles:puzzle", day=date) if shown else None,
                     "size": puzzle.size if shown and puzzle else None,
                     "goal": puzzle.goal if shown and puzzle else None,
                     "turns": puzzle.turns if shown and puzzle else None,
                     "start": puzzle.start if shown and puzzle else None})
    return {"monday": monday.isoformat(), "published": found is not None, "puzzles": rows}
