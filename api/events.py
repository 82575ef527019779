"""The account event stream's `gameStart` (lichess's event): when any game starts (a
challenge accepted, a table filled, a rematch, a tournament's pairing, a game against the
site's bots), each member seated in it is told on their own group (`user.<id>`, which their
API event streams and lobby sockets join; a lobby page ignores it), after the commit, with
the same fields as the stream's opening lines (`api.live.game_start`). Heard on the games
app's signal of a game's first turn passing (`games.signals.turn_passed` with no seat
decided: `games.turns.play.create_game`), so every way a game is made tells its members."""

from __future__ import annotations

from typing import Any

from games import services, signals
from games.frames.broadcast import send_on_commit, user_group
from games.models import Game

from .live import game_start


def _started(sender: object, *, game: Game, decided: int | None, **kwargs: Any) -> None:
    if decided is not None:
        return
    for user_id in sorted({seat.user_id for seat in game.seat_list
                           if seat.user_id is not None}):
        item = services.waiting_game(game, user_id)
        if item is not None:
            send_on_commit(user_group(user_id), game_start(item))


def connect() -> None:
    signals.turn_passed.connect(_started, dispatch_uid="api.game_start")
