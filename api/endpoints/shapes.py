"""What the endpoints share: a member by name or the 404, a game's players as the API
shows them, times as ISO 8601 text, absolute URLs."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from accounts.profile import find_member
from games import titles
from games.models import Game

from ..errors import ApiError, Code


def member(username: str) -> Any:
    found = find_member(username) if 0 < len(username) <= 150 else None
    if found is None:
        raise ApiError(Code.NOT_FOUND, f"No member is called {username!r}.")
    return found[0]


def iso(moment: dt.datetime | dt.date | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def absolute(request: HttpRequest, name: str, **kwargs: Any) -> str:
    return request.build_absolute_uri(reverse(name, kwargs=kwargs or None))


def players(game: Game) -> list[dict[str, Any]]:
    """The seats in order, with who holds each (a guest's session never leaves)."""
    kind = game.kind
    known = titles.titles_of(seat.user_id for seat in game.seat_list)
    return [{"seat": seat.index, "side": kind.seat_key(seat.index),
             "name": seat.holder_name(kind) or "",
             "username": seat.user.get_username() if seat.user is not None else None,
             "title": known.get(seat.user_id) if seat.user_id is not None else None,
             "bot": seat.bot_level or seat.stand_in or None,
             "score": seat.score, "place": seat.place, "outcome": seat.outcome,
             "resigned": seat.resigned} for seat in game.seat_list]


def game_facts(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The fields a game's JSON and its export line share."""
    return {"id": game.id, "url": absolute(request, "games:game", game_id=game.id),
            "game": game.game_type, "mode": game.mode, "rated": game.rated,
            "status": game.status, "termination": game.termination,
            "created_at": iso(game.created_at), "finished_at": iso(game.finished_at),
            "ply": game.ply, "players": players(game)}
