"""A member's games in progress, for the home page: each with its opponents and whose turn
it is (read from the cached position, no replay)."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from .models import Game
from .store import SEATS, live

MAX_SHOWN = 20


@dataclass(frozen=True)
class GameInProgress:
    id: str
    url: str
    mode: str
    size: int | None
    opponents: str  # "kofi", "CargoBot Easy"
    your_turn: bool
    to_move: str  # "Your turn", "kofi to move"


def games_in_progress(user_id: int, limit: int = MAX_SHOWN) -> list[GameInProgress]:
    """The member's active games, their turn first, then the newest."""
    games = (Game.objects.filter(seats__user_id=user_id, status=Game.Status.ACTIVE)
             .distinct().order_by("-created_at").prefetch_related(SEATS)[:limit])
    out = []
    for game in games:
        game.set_seats(list(game.seats.all()))
        kind = game.kind
        seats = game.seat_list
        mine = {s.index for s in seats if s.user_id == user_id}
        acting = set(live(game).acting())
        others = [s.holder_name(kind) or kind.seat_label(s.index)
                  for s in seats if s.index not in mine]
        your_turn = bool(acting & mine)
        movers = [s.holder_name(kind) or kind.seat_label(s.index)
                  for s in seats if s.index in acting and s.index not in mine]
        out.append(GameInProgress(
            id=game.id, url=reverse("games:game", kwargs={"game_id": game.id}),
            mode=game.mode, size=game.size, opponents=", ".join(others) or "yourself",
            your_turn=your_turn,
            to_move="Your turn" if your_turn else
            (f"{', '.join(movers)} to move" if movers else "Waiting"),
        ))
    out.sort(key=lambda g: not g.your_turn)
    return out
