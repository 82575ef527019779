"""Loading games: a row with its seats (and their members' ratings), locked or not; and the
game kind's in-memory game from the row's cache (`live`) or by replay (`replayed`). A
turn's hand-built conditional write is the fast path's (games.fast.statements)."""

from __future__ import annotations

from django.db.models import Prefetch

from games.frames.protocol import NotFound
from games.kinds import LiveGame
from games.models import Game, Seat

SEATS = Prefetch("seats", queryset=Seat.objects.select_related("user__player").order_by("index"))


def get_game(game_id: str) -> Game:
    """The game with its seats; NotFound if there is none."""
    try:
        game = Game.objects.prefetch_related(SEATS).get(id=game_id)
    except Game.DoesNotExist:
        raise NotFound("game") from None
    game.set_seats(list(game.seats.all()))
    return game


def lock_game(game_id: str) -> Game:
    """The game row, locked until the transaction ends (`SELECT … FOR UPDATE`), then its
    seats with their members and ratings in a second query: compiling one join with FOR
    UPDATE cost more CPU than the second round trip (docs/live-play.md)."""
    try:
        game = Game.objects.select_for_update().get(id=game_id)
    except Game.DoesNotExist:
        raise NotFound("game") from None
    # no ORDER BY (set_seats sorts two or four rows): compiling it cost more than sorting
    game.set_seats(list(Seat.objects.filter(game=game).select_related("user__player")
                        .order_by()))
    return game


def live(game: Game) -> LiveGame:
    """The kind's game from the cached position (no replay)."""
    return game.kind.resume(game.position, list(game.tokens), game.resigned_seats)


def replayed(game: Game, upto: int | None = None) -> LiveGame:
    """The game replayed from its start through `upto` decisions (all by default), each
    by the seat that made it (a kind may need it: a secret plan names no seat)."""
    tokens = list(game.tokens[:upto])
    seats = list(game.turns.filter(ply__lt=len(tokens)).order_by("ply")
                 .values_list("seat", flat=True)) if tokens else []
    return game.kind.replay(game.start, tokens, seats)
