"""The home page's data: for a member, the Play buttons' choices, their games in progress,
today's Daily Challenge, this week's puzzles and who is online; for a visitor, the landing
page's few facts. Each part asks the app that owns it. This week's puzzles are the week the
Puzzles page serves, `schedule.current_week()`: on a fresh install (no worker, nothing
published) the first of the two pages opened this week generates and publishes it, so the
home page never says "not published" while /puzzles/ shows puzzles (issue #27)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse

from cargosite.howto import board as howto_board
from games import presence
from games.actors import Actor
from games.forms import DEFAULT_SEEK, SEEK_CHOICES
from games.kinds import get_kind
from games.waiting import waiting_games
from puzzles import progress, schedule
from puzzles.daily import clock as daily_clock
from puzzles.daily import services as daily
from puzzles.models import DAY_NAMES
from puzzles.records import WEEK_SCHEDULE
from rankings.elo import BOT_RATINGS

CARGO_CONNECT = "cargo-connect"
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


def quick_play_choices() -> list[dict[str, Any]]:
    """One Play button per choice: its label and the seek options it posts. A time control
    (issue #15's clocks) becomes one more key in `options` and a second row of buttons."""
    kind = get_kind(CARGO_CONNECT)
    return [{"label": f"{n}×{n}", "options": {"size": n}, "standard": n == 8}
            for n in kind.sizes]  # type: ignore[attr-defined]


def bot_levels() -> list[dict[str, Any]]:
    kind = get_kind(CARGO_CONNECT)
    return [{"level": level, "name": kind.bot_name(level), "rating": BOT_RATINGS[level]}
            for level in kind.bot_levels]


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
    """Members seen in the last few minutes (games/presence.py says how)."""
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
        "quick_play": quick_play_choices(),
        # the pills' short names ("3+2", "1 day"): the lobby spells them out
        "quick_time_choices": [(code, label.split(" · ")[0].removesuffix(" per turn"))
                               for code, label in SEEK_CHOICES],
        "quick_time_default": DEFAULT_SEEK,
        "bot_levels": bot_levels(),
        "in_progress": waiting_games(user)[:MAX_IN_PROGRESS],
        "daily": daily_today(Actor.member(user)),
        "week": week_days(user),
        "online": online_members(),
    }


# The landing page's still from a shift in progress: rows from the top in the notation's
# letters ("B" Blue core, "O" Orange core, "x" an Empty Can, "." open space).
DEMO_SHIFT = ["......", "......", "..O...", ".BOB..", "xxOB.O", "xxBOBO"]


def visitor_home() -> dict[str, Any]:
    """The landing page asks nothing of the database. Its demo bay is drawn by the server
    like How to play's boards (`howto.board`, templates/games/_mini_bay.html, game.css's
    modules), so its pieces are the game's: Blue round, Orange a diamond (issue #27)."""
    return {"daily": {"size": daily_clock.size_of(daily_clock.today()),
                      "url": reverse("daily:today")},
            "demo": howto_board(DEMO_SHIFT, label="A 6×6 Cargo Bay mid-shift: Blue and "
                                                  "Orange cores and Empty Cans")}
