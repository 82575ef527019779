"""A member's games in progress and which of them wait for them ("Your turn"): the home
page's list, the page of its own (`/games/waiting`), the count in the site's header, and
the notifications' daily digest all ask this module (docs/clocks.md, "Your turn").

A game waits for the member when one of their seats is among the seats the kind lists as
acting (`LiveGame.acting`, read from the cached position: no replay); its deadline is that
seat's running clock's zero (a correspondence decision's deadline; a live clock's too),
None when no clock of theirs runs. The ones waiting for the member come first, the
earliest deadline first, then the newest.

- `waiting_games(user)`: the list, in two queries (the member's seats with their games,
  then the other seats' holders).
- `waiting_count(user_id)`: how many wait for the member, in one query (the header's
  "N waiting" on every page).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.urls import reverse

from games import titles
from games.models import Game, Seat
from games.timing import clocks

MAX_SHOWN = 100
_FAR = dt.datetime.max.replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class WaitingGame:
    """One of the member's games in progress: does it wait for them, and by when."""

    game: Game
    waiting_for_you: bool
    deadline: dt.datetime | None  # when the member's decision is due (None: no clock)
    opponents: str = ""  # "kofi", "kofi, lena", "CargoBot Easy"
    to_move: str = ""  # "Your turn", "kofi to move"
    url: str = ""
    kind_name: str = ""
    time_control: str = ""  # "3 days per turn", "Untimed"
    seats: tuple[int, ...] = field(default=())  # the member's seats

    @property
    def size(self) -> int | None:
        return self.game.size


_GAME_FIELDS = ("game__id", "game__revision", "game__game_type", "game__mode",
                "game__options", "game__position", "game__tokens", "game__time_control",
                "game__clock", "game__clock_since", "game__created_at")


def _my_seats(user_id: int) -> Any:
    """The member's seats in their active games, each with its game (one query)."""
    return (Seat.objects.filter(Q(stand_in__isnull=True) | Q(stand_in=""), user_id=user_id,
                                game__status=Game.Status.ACTIVE, resigned=False)
            .select_related("game").only("index", "game_id", *_GAME_FIELDS)
            .order_by("-game__created_at")[:MAX_SHOWN])


_ACTING: dict[tuple[str, int], frozenset[int]] = {}  # (game, revision) -> acting seats
_ACTING_KEPT = 4096


def _acting(game: Game) -> frozenset[int]:
    """The seats the kind lists as acting, from the cached position. An active game's
    resigned seats change no kind's acting seats (a two-seat game ends on a resignation,
    and Cargo Express's position says who is out), so the seats are not loaded. Kept per
    revision (every save bumps it): the header's count asks on every page, and resuming
    a game is an engine's parse."""
    key = (game.id, game.revision)
    acting = _ACTING.get(key)
    if acting is None:
        acting = frozenset(game.kind.resume(game.position, list(game.tokens), []).acting())
        if len(_ACTING) >= _ACTING_KEPT:
            _ACTING.clear()
        _ACTING[key] = acting
    return acting


def _deadline(game: Game, seats: Iterable[int]) -> dt.datetime | None:
    """The earliest deadline of the member's running clocks in `game` (None: none runs)."""
    game_clocks = clocks.of_game(game)
    if game_clocks is None:
        return None
    due = game_clocks.deadlines()
    return min((d for s in seats if (d := due[s]) is not None), default=None)


def _by_game(rows: Iterable[Seat]) -> dict[str, tuple[Game, set[int]]]:
    games: dict[str, tuple[Game, set[int]]] = {}
    for row in rows:
        games.setdefault(row.game_id, (row.game, set()))[1].add(row.index)
    return games


def _order(item: WaitingGame) -> tuple[bool, dt.datetime, float]:
    return (not item.waiting_for_you, item.deadline or _FAR,
            -item.game.created_at.timestamp())


def waiting_count(user_id: int) -> int:
    """How many of the member's games wait for them (one query)."""
    return sum(1 for game, mine in _by_game(_my_seats(user_id)).values()
               if _acting(game) & mine)


def waiting_games(user: Any) -> list[WaitingGame]:
    """The member's games in progress, the ones waiting for them first, the earliest
    deadline first, then the newest (two queries)."""
    games = _by_game(_my_seats(user.pk))
    others: dict[str, list[Seat]] = {}
    for seat in (Seat.objects.filter(game_id__in=list(games)).select_related("user")
                 .order_by("index")):
        others.setdefault(seat.game_id, []).append(seat)
    out = [_item(game, mine, others.get(game_id, [])) for game_id, (game, mine)
           in games.items()]
    return sorted(out, key=_order)


def waiting_game(game: Game, user_id: int) -> WaitingGame | None:
    """One game of the member's as `waiting_games` lists it (a game that has just started:
    the API's `gameStart` event), from the game's loaded seats; None if they hold no seat."""
    seats = list(game.seat_list)
    mine = {s.index for s in seats if s.user_id == user_id and not s.stand_in
            and not s.resigned}
    return _item(game, mine, seats) if mine else None


def _item(game: Game, mine: set[int], seats: list[Seat]) -> WaitingGame:
    kind = game.kind
    acting = _acting(game)
    yours = bool(acting & mine)
    known = titles.titles_of(s.user_id for s in seats)
    names = {s.index: titles.titled(s.holder_name(kind) or kind.seat_label(s.index),
                                    known.get(s.user_id) if s.user_id else None)
             for s in seats}
    opponents = [names[i] for i in sorted(names) if i not in mine]
    movers = [names[i] for i in sorted(acting - mine) if i in names]
    return WaitingGame(
        game=game, waiting_for_you=yours,
        deadline=_deadline(game, sorted(acting & mine)) if yours else None,
        opponents=", ".join(opponents) or "yourself",
        to_move="Your turn" if yours else
        (f"{', '.join(movers)} to move" if movers else "Waiting"),
        url=reverse("games:game", kwargs={"game_id": game.id}),
        kind_name=kind.name, time_control=clocks.label(game.time_control),
        seats=tuple(sorted(mine)))
