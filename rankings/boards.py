"""The rankings page's boards, read from the members' ratings (`accounts.Player`) and the
rating history, by an indexed sort each time (no cache: a deactivated account leaves every
board at once).

Eligibility, the same for both ratings: an active account with at least `MIN_GAMES` games
counted by that rating and one of them in the last `ACTIVE_DAYS` days. Ranks are shared by
equal ratings (1, 2, 2, 4); rows with equal ratings are listed by username.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from accounts.models import Player

from .models import BotRatingChange, RatingChange

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
    key: str
    title: str
    rating: str  # Player field
    games: str  # Player field
    history: Any  # the history model (its rows' `created_at` say when a game counted)
    what: str  # the games this rating counts, in words


ELO = _Rating("elo", "Elo rating", "rating", "rated_games", RatingChange,
              "rated online games")
BOT = _Rating("bot", "vs CargoBot rating", "bot_rating", "bot_games", BotRatingChange,
              "casual games against CargoBot")


def _eligible(r: _Rating, now: dt.datetime) -> QuerySet[Player]:
    recent = r.history.objects.filter(user=OuterRef("user"),
                                      created_at__gte=now - dt.timedelta(days=ACTIVE_DAYS))
    return Player.objects.filter(user__is_active=True, **{f"{r.games}__gte": MIN_GAMES}).filter(
        Exists(recent))


def board(r: _Rating, viewer: Any = None, now: dt.datetime | None = None,
          top: int = TOP) -> Board:
    now = now or timezone.now()
    eligible = _eligible(r, now)
    players = list(eligible.select_related("user").order_by(f"-{r.rating}", "user__username")
                   [:top])
    rows: list[dict[str, Any]] = []
    for i, player in enumerate(players):
        rating = getattr(player, r.rating)
        rank = rows[-1]["rank"] if rows and rows[-1]["rating"] == rating else i + 1
        rows.append({"rank": rank, "username": player.user.get_username(), "rating": rating,
                     "games": getattr(player, r.games), "user_id": player.user_id})
    rules = (f"Players with at least {MIN_GAMES} {r.what}, one of them in the last "
             f"{ACTIVE_DAYS} days.")
    return Board(r.key, r.title, rows, _you(r, eligible, viewer, now), rules)


def _you(r: _Rating, eligible: QuerySet[Player], viewer: Any, now: dt.datetime
         ) -> dict[str, Any] | None:
    """The signed-in member's rank, or what they still need for one."""
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    player = Player.objects.filter(user=viewer).first()
    rating = getattr(player, r.rating) if player else None
    games = getattr(player, r.games) if player else 0
    if player is not None and eligible.filter(pk=player.pk).exists():
        higher = eligible.filter(**{f"{r.rating}__gt": rating}).count()
        return {"rank": higher + 1, "rating": rating, "games": games, "user_id": viewer.pk}
    if games < MIN_GAMES:
        need = MIN_GAMES - games
        why = f"Play {need} more {r.what} to be ranked."
    else:
        why = f"No {r.what} in the last {ACTIVE_DAYS} days: play one to be ranked again."
    return {"rank": None, "rating": rating, "games": games, "why": why, "user_id": viewer.pk}


def elo_board(viewer: Any = None, now: dt.datetime | None = None) -> Board:
    return board(ELO, viewer, now)


def bot_board(viewer: Any = None, now: dt.datetime | None = None) -> Board:
    return board(BOT, viewer, now)
