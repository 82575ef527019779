"""Abandonment: aborting a game before every seat has moved, and claiming a live game whose
opponent has left, or, with more than two seats, the seat of a player who left
(docs/clocks.md).

- **Abort.** In an online game or a game against CargoBot (not the Daily Challenge), until
  every seat has made its first decision, any player may abort: the game ends with no
  result (`finish.abort_game`: status and termination `aborted`, no place, no outcome, no
  rating change; it is listed nowhere).
- **Presence** (who is here, and the state's `abandon` part) is games.frames.away.
- **Idle sweep.** An untimed online game (or one against bots) in which nobody has made a
  decision for `IDLE_AFTER`, or a correspondence game whose first decisions have not all
  been made within its days (lichess aborts a correspondence game nobody started), is
  aborted by the scheduled `sweep_idle_games` (Celery beat): no result, as an abort; its
  players get an `ended` frame. Started timed games need no sweep: their clocks end them
  (a fallen seat loses, or leaves with two timeouts in a row).
- **Claim.** Once every seat has moved, in a two-seat game, a player whose opponent has
  been away (socket closed, no turn) for `CLAIM_AFTER` may claim the win (the kind resigns
  the absent seat) or call it a draw; termination `abandoned`, a decided result like any
  other (ratings count it).
- **Claim a seat** (more than two seats, as Board Game Arena does): a present player may
  hand a seat whose player has been away for `CLAIM_AFTER` to its stand-in, the kind's
  `leaver_stand_in` (a bot plays it on, or it goes dormant), as `games.turns.play.leave` does for
  a seat out on time; the others play on. Should the kind then say the game is over (a
  dormant seat leaving one player in), it ends as `abandoned`, claimed by that player.

Each request first makes a due flag fall (`games.timing.timeouts`): the clock comes first.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.actors import Actor
from games.botplay import bots
from games.frames.audiences import send_on_commit_to_all
from games.frames.away import ABORTABLE_MODES, CLAIM_AFTER, away_ms, human, started, tracks_presence
from games.frames.protocol import Code, GameError
from games.frames.states import frame_state, state_of
from games.kinds import LiveGame, Result
from games.models import Game, Seat
from games.timing import clocks, timeouts
from games.turns import finish, play
from games.turns.store import live, lock_game

IDLE_AFTER = dt.timedelta(days=3)  # an untimed game nobody moves in is aborted after this
WIN, DRAW = "win", "draw"


def _player_seat(game: Game, actor: Actor | None, what: str) -> int:
    seat = play.seat_or_refuse(game, actor, what)
    if game.is_over:
        raise GameError(Code.GAME_OVER, "the game is over", game.ply)
    return seat


def _now(game: Game, seat: int) -> dict[str, Any]:
    """The state as it is, sent after a refused abort or claim: the page's box then shows
    what is true (the opponent is back, the game has started) instead of staying."""
    return state_of(game, viewer=seat)


def _ended_frame(game: Game, lg: LiveGame, seat: int, events: list[Any]) -> dict[str, Any]:
    sent = send_on_commit_to_all(game, lambda viewer: {
        "type": "ended", "ply": game.ply, "termination": game.termination, "seat": seat,
        "side": game.kind.seat_key(seat), "events": lg.events_for(events, viewer),
        "state": frame_state(game, lg, viewer)})
    return sent.frame(seat)


@timeouts.flag_when_fallen
def abort(game_id: str, *, actor: Actor | None) -> dict[str, Any]:
    """A player aborts the game before every seat has moved: no result, no rating."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = _player_seat(game, actor, "abort the game")
        timeouts.refuse_if_fallen(game)
        if game.mode not in ABORTABLE_MODES:
            raise GameError(Code.BAD_REQUEST, "this game cannot be aborted", game.ply)
        moved = set(game.turns.values_list("seat", flat=True))
        if len(moved) >= len(game.seat_list):
            raise GameError(Code.BAD_REQUEST, "every player has moved: the game can no "
                            "longer be aborted (resign instead)", game.ply,
                            _now(game, seat))
        lg = live(game)
        finish.abort_game(game, lg, seat, [])
        return _ended_frame(game, lg, seat, [])


def _refuse_unless_away(game: Game, other: Seat, at: dt.datetime, seat: int, who: str
                        ) -> None:
    """Refuse (with `seat`'s state) unless `other`'s player has been away for
    `CLAIM_AFTER`: socket closed and no turn since (`who` names them in the message)."""
    away = away_ms(other, at, game.created_at)
    if not human(game, other.index) or away is None:
        raise GameError(Code.BAD_REQUEST, f"{who} is still here", game.ply,
                        _now(game, seat))
    last_turn = game.turns.filter(seat=other.index).order_by("-ply") \
        .values_list("created_at", flat=True).first()
    if last_turn is not None:  # a turn over HTTP, without a socket, is presence too
        away = min(away, int((at - last_turn).total_seconds() * 1000))
    if away < CLAIM_AFTER.total_seconds() * 1000:
        wait = int(CLAIM_AFTER.total_seconds() - away // 1000)
        raise GameError(Code.BAD_REQUEST, f"{who} left less than "
                        f"{int(CLAIM_AFTER.total_seconds())} s ago: wait {wait} s "
                        "more", game.ply, _now(game, seat))


def _claimable(game: Game, seat: int) -> LiveGame:
    """The checks every claim shares, in the transaction that locked `game`: a live online
    game in which every seat has moved; the kind's game."""
    timeouts.refuse_if_fallen(game)
    if not tracks_presence(game):
        raise GameError(Code.BAD_REQUEST, "only a live online game can be claimed when "
                        "the opponent leaves", game.ply)
    lg = live(game)
    if not started(game, lg):
        raise GameError(Code.BAD_REQUEST, "nobody can claim before every player has "
                        "moved: abort the game instead", game.ply)
    return lg


@timeouts.flag_when_fallen
def claim(game_id: str, *, actor: Actor | None, result: str) -> dict[str, Any]:
    """A player whose every opponent has been away for `CLAIM_AFTER` in a live game claims
    the win or calls it a draw."""
    if result not in (WIN, DRAW):
        raise GameError(Code.BAD_REQUEST, f"a claim is for a win or a draw, not {result!r}")
    with transaction.atomic():
        game = lock_game(game_id)
        seat = _player_seat(game, actor, "claim the game")
        lg = _claimable(game, seat)
        if len(game.seat_list) > 2:
            raise GameError(Code.BAD_REQUEST, "with more than two seats, nobody claims the "
                            "game: hand the seat of a player who left to "
                            + ("a bot" if game.kind.leaver_stand_in else "the others")
                            + ' ({"type": "claim", "seat": K})', game.ply)
        at = timezone.now()
        others = [s for s in game.seat_list if s.index != seat and not s.resigned]
        for other in others:
            _refuse_unless_away(game, other, at, seat, "your opponent")
        events: list[Any] = []
        game.ended_by = seat
        fields = ["ended_by"]
        if result == WIN:
            for other in others:
                if not lg.over:
                    events += lg.resign(other.index)
            fields += bots.after_change(game, lg)
            finish.finish(game, lg, Game.Termination.ABANDONED, fields)
        else:
            seats = len(game.seat_list)
            draw = Result(scores=lg.standing() or (), places=(1,) * seats)
            finish.finish(game, lg, Game.Termination.ABANDONED, fields, result=draw)
        return _ended_frame(game, lg, seat, events)


@timeouts.flag_when_fallen
def claim_seat(game_id: str, *, actor: Actor | None, seat: int) -> dict[str, Any]:
    """In a live game of more than two seats, a present player hands `seat`, whose player
    has been away for `CLAIM_AFTER`, to its stand-in (a bot or dormant, as the kind says:
    `games.turns.play.leave`); the game goes on for the others. The frame is the claimant's."""
    with transaction.atomic():
        game = lock_game(game_id)
        mine = _player_seat(game, actor, "claim a seat")
        if len(game.seat_list) <= 2:
            raise GameError(Code.BAD_REQUEST, "with two seats, claim the win or call it a "
                            'draw ({"type": "claim", "result": "win" | "draw"})', game.ply)
        if not 0 <= seat < len(game.seat_list):
            raise GameError(Code.BAD_REQUEST, f"no seat {seat} in this game", game.ply)
        if seat == mine:
            raise GameError(Code.BAD_REQUEST, "you cannot claim your own seat (resign "
                            "instead)", game.ply)
        _claimable(game, mine)
        other = game.seat_list[seat]
        name = game.kind.seat_label(seat)
        if other.resigned or other.stand_in or other.bot_level:
            raise GameError(Code.BAD_REQUEST, f"{name} is no longer played by a person",
                            game.ply, _now(game, mine))
        _refuse_unless_away(game, other, timezone.now(), mine, name)
        game.ended_by = mine  # saved only if the game ends here: the claimant ended it
        return play.leave(game, seat, Game.Termination.ABANDONED, answer=mine)


def idle_games(at: dt.datetime | None = None) -> list[str]:
    """The games still going on that nobody moves in: untimed online games and games
    against bots in which nobody has decided anything (nor started them) for
    `IDLE_AFTER`; and correspondence games whose clocks have not started (not every seat
    has made its first decision) in which nobody has decided anything for the game's
    days. A correspondence game whose clocks run is never idle: its deadlines end it."""
    at = at or timezone.now()
    active = (Game.objects.filter(status=Game.Status.ACTIVE, mode__in=ABORTABLE_MODES)
              .annotate(last=Coalesce(Max("turns__created_at"), "created_at")))
    untimed = active.filter(time_control="", last__lt=at - IDLE_AFTER)
    waiting = active.filter(time_control__endswith="d", clock_since__isnull=True,
                            last__lt=at - dt.timedelta(days=1))
    unstarted = [game_id for game_id, code, last, clock, since in waiting.values_list(
        "id", "time_control", "last", "clock", "clock_since")[:500]
        if _not_started(code, clock, since) and last < at - _days(code)]
    return [*untimed.values_list("id", flat=True)[:500], *unstarted]


def _days(code: str) -> dt.timedelta:
    control = clocks.parse(code)
    assert control is not None
    return dt.timedelta(milliseconds=control.base_ms)


def _not_started(code: str, clock: dict[str, Any] | None, since: dt.datetime | None) -> bool:
    control = clocks.parse(code)
    return control is not None and clock is not None and \
        not clocks.Clocks.load(control, clock, since).started


def sweep_idle_games(at: dt.datetime | None = None) -> list[str]:
    """Abort every idle game (`idle_games`), each in its own transaction, looking again
    under the lock (a decision may have come meanwhile). The games aborted."""
    aborted = []
    for game_id in idle_games(at):
        with transaction.atomic():
            game = lock_game(game_id)
            if game.status != Game.Status.ACTIVE or game_id not in idle_games(at):
                continue
            lg = live(game)
            finish.abort_game(game, lg, None, [])
            _send_idle_ended(game, lg)
        aborted.append(game_id)
    return aborted


def _send_idle_ended(game: Game, lg: LiveGame) -> None:
    def frame(viewer: int | None) -> dict[str, Any]:
        return {"type": "ended", "ply": game.ply, "termination": game.termination,
                "seat": None, "side": None, "events": [],
                "state": frame_state(game, lg, viewer)}

    send_on_commit_to_all(game, frame)
