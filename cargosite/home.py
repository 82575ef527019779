"""The home page's data: for a member, the Play box (each game kind's section, side by side,
the default game first: its template and context are the kind's own, `GameKind.home_play`;
this module names no game), their games in progress, today's Daily Challenge, this week's
puzzles and who is online; for a visitor, the landing page's few facts and each kind's card
(`GameKind.home_hero`). Each part asks the app that owns it. This week's puzzles are
the week the Puzzles page serves, `schedule.current_week()`: on a fresh install (no worker,
nothing published) the first of the two pages opened this week generates and publishes it,
so the home page never says "not published" while /puzzles/ shows puzzles (issue #27)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse

from games.actors import Actor
from games.frames import presence
from games.kinds import GameKind, all_kinds, first_kinds_first
from games.tables.forms import seek_choices, seek_default
from games.tables.waiting import waiting_games
from puzzles import progress, schedule
from puzzles.daily import clock as daily_clock
from puzzles.daily import services as daily
from puzzles.models import DAY_NAMES
from puzzles.records import WEEK_SCHEDULE

MAX_ONLINE_NAMES = 24
MAX_IN_PROGRESS = 20  # the home page's share of the list; /games/waiting has all


@dataclass(frozen=True)
class PuzzleDay:
    name: str
    date: dt.date
    size: int
    is_today: bool
    url: str | None  # None: not open yet, or no puzzle published
    state: str  # "solved", "tried", "new", "opens on its day", "not published"


@dataclass(frozen=True)
class KindPart:
    """A game kind's part of the home page: its own template (`GameKind.home_play_template`
    or `home_hero_template`), included with `context` under one name (`play`, `hero`)."""

    template: str
    context: dict[str, Any]


def _home_kinds() -> list[GameKind]:
    return first_kinds_first(all_kinds())  # the default game first, as the lobby


def play_sections() -> list[KindPart]:
    """A member's Play box: each kind's section, with its time controls as the quick
    pairing's pills show them (their short names, "3+2", "1 day": the lobby spells them
    out). A kind without `home_play_template` has none."""
    return [KindPart(kind.home_play_template, {
        **kind.home_play(),
        "time_choices": [(code, label.split(" · ")[0].removesuffix(" per turn"))
                         for code, label in seek_choices(kind)],
        "time_default": seek_default(kind),
    }) for kind in _home_kinds() if kind.home_play_template]


def hero_cards() -> list[KindPart]:
    """The landing page's hero: each kind's card (none without `home_hero_template`)."""
    return [KindPart(kind.home_hero_template, kind.home_hero())
            for kind in _home_kinds() if kind.home_hero_template]


def week_days(user: Any) -> list[PuzzleDay]:
    today = schedule.today()
    monday = schedule.monday_of(today)
    week = schedule.current_week()  # the Puzzles page's week (made if there is none)
    puzzles = {p.day: p for p in week.puzzles.all()}
    done: dict[int, str] = {}
    if user is not None and puzzles:
        for row in progress.Progress.objects.filter(user=user, puzzle__in=puzzles.values()):
            done[row.puzzle_id] = progress.state_word(progress.member_summary(row))
    out = []
    for day in range(7):
        date = monday + dt.timedelta(days=day)
        puzzle = puzzles.get(day)
        opened = date <= today and puzzle is not None
        out.append(PuzzleDay(
            name=DAY_NAMES[day], date=date,
            size=puzzle.size if puzzle else WEEK_SCHEDULE[day].size,
            is_today=date == today,
            url=reverse("puzzles:puzzle", kwargs={"day": date}) if opened else None,
            state=done.get(puzzle.pk, "new") if opened and puzzle is not None
            else "opens on its day" if date > today else "not published",
        ))
    return out


def daily_today(actor: Actor | None) -> dict[str, Any]:
    day = daily_clock.today()
    return {
        "day": day,
        "size": daily_clock.size_of(day),
        "players": daily.players_on(day),
        "standings": daily.standings(actor, day),
        "url": reverse("daily:today"),
    }


def online_members(exclude: int | None = None) -> dict[str, Any]:
    """Members seen in the last few minutes (games/frames/presence.py says how)."""
    try:
        ids = presence.online_ids()
    except Exception:  # the presence store is down: the page still renders
        return {"names": [], "count": 0, "minutes": presence.ONLINE_SECONDS // 60}
    users = get_user_model().objects.filter(pk__in=ids, is_active=True)
    by_id = {u.pk: u.get_username() for u in users}
    names = [by_id[i] for i in ids if i in by_id]
    return {"names": names[:MAX_ONLINE_NAMES], "count": len(names),
            "minutes": presence.ONLINE_SECONDS // 60}


def member_home(user: Any) -> dict[str, Any]:
    return {
        "play_sections": play_sections(),
        "in_progress": waiting_games(user)[:MAX_IN_PROGRESS],
        "daily": daily_today(Actor.member(user)),
        "week": week_days(user),
        "online": online_members(),
    }


def visitor_home() -> dict[str, Any]:
    """The landing page asks nothing of the database: each kind's card (Cargo Connect's
    with its demo bay, drawn by the server) and the size of today's Daily Challenge."""
    return {"daily": {"size": daily_clock.size_of(daily_clock.today()),
                      "url": reverse("daily:today")},
            "hero_cards": hero_cards()}
