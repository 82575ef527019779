"""A member's games in progress and whether each waits for them, with the deadline of
their decision (issue #29). A stand-in until the correspondence work's own version lands:
the same function and dataclass, read from `LiveGame.acting` and the clocks."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from . import clocks
from .models import Game
from .store import SEATS, live


@dataclass(frozen=True)
class WaitingGame:
    game: Game
    waiting_for_you: bool
    deadline: dt.datetime | None  # when the member's running clock falls (None: no clock)


def waiting_games(user: Any) -> list[WaitingGame]:
    """The member's active games, those waiting for them first (the nearest deadline
    first), then the others, newest first."""
    at = timezone.now()
    games = (Game.objects.filter(seats__user_id=user.pk, status=Game.Status.ACTIVE)
             .distinct().order_by("-created_at").prefetch_related(SEATS))
    out = []
    for game in games:
        game.set_seats(list(game.seats.all()))
        mine = {s.index for s in game.seat_list if s.user_id == user.pk}
        acting = mine & set(live(game).acting())
        out.append(WaitingGame(game, bool(acting), _deadline(game, acting, at)))
    far = dt.datetime.max.replace(tzinfo=dt.UTC)
    out.sort(key=lambda w: (not w.waiting_for_you, w.deadline or far))
    return out


def _deadline(game: Game, seats: set[int], at: dt.datetime) -> dt.datetime | None:
    game_clocks = clocks.of_game(game)
    if game_clocks is None:
        return None
    left = game_clocks.remaining(at)
    running = [ms for s in seats if s in game_clocks.running and (ms := left[s]) is not None]
    return at + dt.timedelta(milliseconds=min(running)) if running else None
