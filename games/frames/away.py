"""Away: which of a live game's players is here, and what the state says of it
(docs/clocks.md). Read and counted here; acted on in games.timing.abandonment (abort, claim) and
games.turns.play (a leaver's seat).

- In an active online game with a live time control, each player's sockets on the game
  are counted on their seat (`Seat.sockets`); when the last one closes the seat is away
  from then (`Seat.left_at`). Never connecting counts as away since the start. The players
  hear each change as a `presence` frame.
- `started`: has every seat moved (until then a game may be aborted)?
- `state`: the state's `abandon` part (may the game be aborted, how long each seat has
  been away, after how long a claim is allowed, what a claimed seat becomes).

Gathering a viewer's state (games.frames.states) reads this module; it never ends a game.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.frames.audiences import send_public_on_commit
from games.kinds import LiveGame
from games.models import Game, Seat
from games.timing import clocks

CLAIM_AFTER = dt.timedelta(seconds=60)
BOT, DORMANT = "bot", "dormant"  # what a seat claimed in a game of more than two becomes
ABORTABLE_MODES = (Game.Mode.ONLINE, Game.Mode.BOT)


def tracks_presence(game: Game) -> bool:
    """Are this game's players' sockets counted? (Active online games with a live clock.)"""
    control = clocks.control_of(game)
    return (not game.is_over and game.mode == Game.Mode.ONLINE and control is not None
            and control.live)


def human(game: Game, seat: int) -> bool:
    """Is the seat held by a person (a member or a guest), not a bot?"""
    holder = game.seat_list[seat]
    return not holder.bot_level and (holder.user_id is not None or bool(holder.guest_key))


# --- presence ------------------------------------------------------------------------------


def arrived(game: Game, seat: int | None) -> bool:
    """A player's socket opened on `game`: count it. True if this socket is counted (so
    `went_away` must be called when it closes)."""
    if seat is None or not tracks_presence(game):
        return False
    holder = game.seat_list[seat]
    was_away = holder.sockets == 0
    Seat.objects.filter(game=game, index=seat).update(sockets=F("sockets") + 1, left_at=None)
    holder.sockets, holder.left_at = holder.sockets + 1, None  # the state sent next says so
    if was_away:
        _send_presence(game.id)
    return True


def went_away(game_id: str, seat: int) -> None:
    """A counted socket closed: if it was the seat's last, the seat is away from now."""
    with transaction.atomic():
        row = Seat.objects.select_for_update().filter(game_id=game_id, index=seat).first()
        if row is None:
            return
        row.sockets = max(0, row.sockets - 1)
        if row.sockets == 0:
            row.left_at = timezone.now()
        row.save(update_fields=["sockets", "left_at"])
        if row.sockets == 0:
            _send_presence(game_id)


def _send_presence(game_id: str) -> None:
    game = Game.objects.only("created_at", "game_type").get(id=game_id)
    seats = list(Seat.objects.filter(game_id=game_id).order_by("index"))
    at = timezone.now()
    frame = {"type": "presence", "away": [away_ms(s, at, game.created_at) for s in seats]}
    send_public_on_commit(game_id, game.kind, len(seats), frame)


def away_ms(seat: Seat, at: dt.datetime, start: dt.datetime) -> int | None:
    """How long a seat's player has been away, in ms (None: here, or a bot). A player
    who never opened the game has been away since it started."""
    if seat.bot_level or seat.sockets or seat.resigned or seat.stand_in:
        return None  # here, a bot, or out of the game (resigned, or a bot plays it on)
    return max(0, int((at - (seat.left_at or start)).total_seconds() * 1000))


# --- what the state says ----------------------------------------------------------------------


def _presence(game: Game) -> list[Seat]:
    """The seats' presence as stored now. Never the loaded game's seats: a warm copy
    (games.fast.warm) keeps the seats it was loaded with, which may be from before the opponent's
    page opened (the false "Your opponent left" of issue #27), and sockets on other
    processes change the rows without telling this one. One small query, only for live
    online games (`tracks_presence`)."""
    return list(Seat.objects.filter(game_id=game.id).order_by("index")
                .only("index", "bot_level", "sockets", "left_at", "resigned", "stand_in"))


def started(game: Game, lg: LiveGame) -> bool:
    """Has every seat moved? Exact for timed games (the clock notes it); for untimed ones
    the ply is compared with the number of seats (exact when seats take turns in order),
    and `abort` checks the turns themselves."""
    game_clocks = clocks.of_game(game)
    if game_clocks is not None:
        return game_clocks.started
    return lg.ply >= len(game.seat_list)


def state(game: Game, lg: LiveGame, at: dt.datetime, final: bool = True
          ) -> dict[str, Any] | None:
    """The state's `abandon` part while the game runs, if it has something to say: may
    it be aborted, how long each seat has been away (live games, current state only), and
    after how long a claim is allowed; with more than two seats, `hand_over`: what a
    claimed seat becomes (`"bot"` or `"dormant"`). (An earlier ply's state, `final` False,
    says only whether it could be aborted then, so a turn's frame is the same when
    rebuilt.)"""
    over = game.is_over if final else lg.over
    if over or game.mode not in ABORTABLE_MODES:
        return None
    tracked = final and tracks_presence(game)
    abortable = not started(game, lg) if final or not clocks.control_of(game) \
        else lg.ply < len(game.seat_list)
    if not abortable and not tracked:
        return None
    part: dict[str, Any] = {
        "abortable": abortable,
        "away": [away_ms(s, at, game.created_at) for s in _presence(game)]
        if tracked else None,
        "claim_after_ms": int(CLAIM_AFTER.total_seconds() * 1000) if tracked else None,
    }
    if len(game.seat_list) > 2:  # two seats: win or draw, as before (no field)
        part["hand_over"] = _hand_over(game)
    return part


def _hand_over(game: Game) -> str:
    return BOT if game.kind.leaver_stand_in else DORMANT


# --- abort and claim ----------------------------------------------------------------------------
