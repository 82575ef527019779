"""The account event stream's game events, lichess's `gameStart` and `gameFinish`, each sent
to every member seated in the game on their own group (`user.<id>`, which their API event
streams and lobby sockets join; a lobby page ignores both), after the commit.

- `gameStart` when any game starts (a challenge accepted, a table filled, a rematch, a
  tournament's pairing, a game against the site's bots), with the same fields as the
  stream's opening lines (`api.live.game_start`). Heard on the games app's signal of a
  game's first turn passing (`games.signals.turn_passed` with no seat decided:
  `games.turns.play.create_game`), so every way a game is made tells its members.
- `gameFinish` when any game ends: on the finish seam's after-commit hook
  (`games.results`, every ending with a result: finished by the rules, resigned, timed
  out, claimed, the end of the Daily Challenge's day; and a void, with status `voided`),
  and on `games.signals.game_aborted` for an abort, which ends a game with no result and
  runs no hook (sent once that transaction commits). A game voided after it had finished
  is told twice, the second time as voided: its result no longer counts."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games import results, services, signals
from games.frames.broadcast import send_on_commit, user_group
from games.models import Game

from .live import game_start


def _members(game: Game) -> list[int]:
    return sorted({seat.user_id for seat in game.seat_list if seat.user_id is not None})


def _started(sender: object, *, game: Game, decided: int | None, **kwargs: Any) -> None:
    if decided is not None:
        return
    for user_id in _members(game):
        item = services.waiting_game(game, user_id)
        if item is not None:
            send_on_commit(user_group(user_id), game_start(item))


def game_finish(game: Game, user_id: int) -> dict[str, Any]:
    """A `gameFinish` event for one member of `game`: the game, the member's seats, how it
    ended and their seat's outcome (`win`, `loss`, `draw`; "" when nothing counts)."""
    mine = [seat for seat in game.seat_list if seat.user_id == user_id]
    return {"type": "gameFinish", "game": {
        "id": game.id, "game_type": game.game_type, "seats": [s.index for s in mine],
        "status": str(game.status), "termination": str(game.termination),
        "outcome": mine[0].outcome if mine else "",
        "place": mine[0].place if mine else None,
        "url": reverse("games:game", kwargs={"game_id": game.id})}}


def _tell_finish(game: Game) -> None:
    for user_id in _members(game):
        send_on_commit(user_group(user_id), game_finish(game, user_id))


@results.on_game_end("api.game_finish", results.Stage.AFTER_COMMIT, order=95)
def _ended(ending: results.Ending) -> None:
    _tell_finish(ending.game)


def _aborted(sender: object, *, game: Game, **kwargs: Any) -> None:
    _tell_finish(game)


def connect() -> None:
    signals.turn_passed.connect(_started, dispatch_uid="api.game_start")
    signals.game_aborted.connect(_aborted, dispatch_uid="api.game_finish.aborted")
