"""The rankings page's boards, one per game type and rating, read from the members' rating
rows (`rankings.Rating`) and the rating history, by an indexed sort each time (the index
`rankings_rating_board`: game type, system, value descending; no cache: a deactivated account
leaves every board at once).

Eligibility, the same for every rating: an active account with at least `MIN_GAMES` games
counted by that rating and one of them in the last `ACTIVE_DAYS` days. Ranks are shared by
equal ratings (1, 2, 2, 4); rows with equal ratings are listed by username. A multiplayer
(OpenSkill) rating still uncertain is marked provisional (rankings.multiplayer).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from games.kinds import all_kinds, first_kinds_first

from . import multiplayer
from .models import BotRatingChange, Rating, RatingChange
from .ratings import ELO as ELO_SYSTEM
from .ratings import OPENSKILL, VS_CARGOBOT, online_system

MIN_GAMES = 5
ACTIVE_DAYS = 30
TOP = 50


@dataclass(frozen=True)
class Board:
    """One rating's board: its rows, and the viewer's place on it (or why they have none)."""

    key: str
    title: str
    rows: list[dict[str, Any]]
    you: dict[str, Any] | None = None
    rules: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Rating:
    key: str  # the rankings tab
    title: str
    history: Any  # the history model (its rows' `created_at` say when a game counted)
    what: str  # the games this rating counts, in words


ELO = _Rating("elo", "Elo rating", RatingChange, "rated online games")
BOT = _Rating("bot", "vs CargoBot rating", BotRatingChange, "casual games against CargoBot")
TITLES = {ELO_SYSTEM: "Elo rating", OPENSKILL: "Rating", VS_CARGOBOT: "vs CargoBot rating"}


def _system(r: _Rating, game_type: str) -> str:
    """The rating system a tab shows for a game type: online, the kind's method's."""
    return online_system(game_type) if r is ELO else VS_CARGOBOT


def game_types() -> list[tuple[str, str]]:
    """The game types a board can be asked for, as (key, name): the default game first."""
    return [(k.key, k.name) for k in first_kinds_first(all_kinds())]


def _eligible(r: _Rating, game_type: str, now: dt.datetime) -> QuerySet[Rating]:
    recent = r.history.objects.filter(user=OuterRef("user"), game__game_type=game_type,
                                      created_at__gte=now - dt.timedelta(days=ACTIVE_DAYS))
    return Rating.objects.filter(game_type=game_type, system=_system(r, game_type),
                                 user__is_active=True, games__gte=MIN_GAMES).filter(
        Exists(recent))


def _provisional(row: Rating) -> bool:
    return row.sigma is not None and multiplayer.provisional(row.sigma)


def board(r: _Rating, viewer: Any = None, now: dt.datetime | None = None,
          top: int = TOP, game_type: str | None = None) -> Board:
    """The board of rating `r` for a game type (the default game's without one)."""
    game_type = game_type or settings.DEFAULT_GAME_KIND
    now = now or timezone.now()
    eligible = _eligible(r, game_type, now)
    ratings = list(eligible.select_related("user").order_by("-value", "user__username")[:top])
    rows: list[dict[str, Any]] = []
    for i, row in enumerate(ratings):
        rank = rows[-1]["rank"] if rows and rows[-1]["rating"] == row.value else i + 1
        rows.append({"rank": rank, "username": row.user.get_username(), "rating": row.value,
                     "games": row.games, "user_id": row.user_id,
                     "provisional": _provisional(row)})
    rules = (f"Players with at least {MIN_GAMES} {r.what}, one of them in the last "
             f"{ACTIVE_DAYS} days.")
    title = TITLES.get(_system(r, game_type), r.title)
    if game_type != settings.DEFAULT_GAME_KIND:
        names = dict(game_types())
        title = f"{names.get(game_type, game_type)}: {title}"
    return Board(r.key, title, rows, _you(r, eligible, viewer, game_type), rules,
                 {"game_type": game_type})


def _you(r: _Rating, eligible: QuerySet[Rating], viewer: Any, game_type: str
         ) -> dict[str, Any] | None:
    """The signed-in member's rank, or what they still need for one."""
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    row = Rating.objects.filter(user=viewer, game_type=game_type,
                                system=_system(r, game_type)).first()
    rating = row.value if row else None
    games = row.games if row else 0
    if row is not None and eligible.filter(pk=row.pk).exists():
        higher = eligible.filter(value__gt=row.value).count()
        return {"rank": higher + 1, "rating": rating, "games": games, "user_id": viewer.pk}
    if games < MIN_GAMES:
        need = MIN_GAMES - games
        why = f"Play {need} more {r.what} to be ranked."
    else:
        why = f"No {r.what} in the last {ACTIVE_DAYS} days: play one to be ranked again."
    return {"rank": None, "rating": rating, "games": games, "why": why, "user_id": viewer.pk}


def elo_board(viewer: Any = None, now: dt.datetime | None = None,
              game_type: str | None = None) -> Board:
    """The rated online board of a game type (Elo for Cargo Connect; the kind's method)."""
    return board(ELO, viewer, now, game_type=game_type)


def bot_board(viewer: Any = None, now: dt.datetime | None = None,
              game_type: str | None = None) -> Board:
    return board(BOT, viewer, now, game_type=game_type)
