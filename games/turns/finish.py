"""The finish seam: every way a game ends goes through `finish` (finished by the rules,
resigned, resigned at the end of the day, timed out, claimed by a player whose opponent
left), `abort_game` (before every seat had moved) or `void_game`.

Each records the result on the game and its seats inside the caller's transaction, then runs
the handlers apps registered in `games.results` (ratings and boards inside the transaction,
achievements and stats after commit). A voided game stops, counts nowhere (its seats lose
place and outcome, the handlers restore what it changed), and its players get a `voided`
frame. An aborted game has no result at all: no place, no outcome, no handler runs (there
is nothing to count or to take back): apps that tell of every ending hear
`games.signals.game_aborted` instead. Every ending stops the game's clocks.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games import results, signals
from games.frames import broadcast
from games.frames.audiences import send_on_commit_to_all
from games.frames.protocol import Code, GameError
from games.frames.states import frame_state
from games.kinds import LiveGame, Result
from games.models import Game, Seat
from games.timing import clocks
from games.turns.store import live, lock_game

Termination = Game.Termination


def finish(game: Game, lg: LiveGame, termination: str, save: list[str],
           result: Result | None = None) -> None:
    """Inside the transaction that ended `lg` (the game row locked): record the result on
    the game and its seats, save the game's `save` fields with the result's, then run the
    handlers. `result` is one the site decided while the kind's game goes on (a draw
    called when the opponent left); by default it is the kind's."""
    result = result or lg.result()
    assert result is not None, "finish() needs a game that is over"
    seats = game.seat_list
    leavers = {s.index: _left_at(s) for s in seats if s.stand_in or s.left}
    result = _leavers_last(result, leavers)
    resigned = set(lg.resigned) | set(leavers)
    for seat in seats:
        seat.score = result.scores[seat.index] if result.scores else None
        seat.place = result.places[seat.index]
        seat.outcome = result.outcome(seat.index)
        seat.resigned = seat.index in resigned
    Seat.objects.bulk_update(seats, ["score", "place", "outcome", "resigned"])
    game.status = Game.Status.FINISHED
    game.termination = termination
    game.finished_at = timezone.now()
    stopped = clocks.stop_game(game, game.finished_at)
    game.save(update_fields=[*save, *stopped, "status", "termination", "finished_at"])
    _run_handlers(results.Ending(game))


def _left_at(seat: Seat) -> tuple[int, int]:
    """When a seat's holder left: the game's ply then and the order of leaving (-1: not
    known, a seat left before the moment was kept, ranked with the earliest)."""
    left = seat.left or {}
    return int(left.get("ply", -1)), int(left.get("order", -1))


def _leavers_last(result: Result, leavers: dict[int, tuple[int, int]]) -> Result:
    """The result with the seats whose holders left (`leavers`: seat → when they left)
    in the last places: the seats no one left keep their order among themselves first;
    then the leavers, the later one left the better (who stayed played more of the
    game); leavers not known apart share a place."""
    if not leavers:
        return result
    stayed = [s for s in range(len(result.places)) if s not in leavers]
    places = list(result.places)
    for seat in stayed:
        places[seat] = 1 + sum(result.places[o] < result.places[seat] for o in stayed)
    for seat, at in leavers.items():
        places[seat] = len(stayed) + 1 + sum(other > at for other in leavers.values())
    return Result(scores=result.scores, places=tuple(places))


def abort_game(game: Game, lg: LiveGame, seat: int | None, save: list[str]) -> None:
    """Inside the transaction that locked the game: `seat` aborts it before every seat
    has moved (None: the idle sweep, games.timing.abandonment). No result: the seats keep no
    place or outcome, the game counts nowhere (status `aborted`), and no handler runs."""
    game.status = Game.Status.ABORTED
    game.termination = Termination.ABORTED
    game.ended_by = seat
    game.finished_at = timezone.now()
    game.bot_waiting_since = None
    stopped = clocks.stop_game(game, game.finished_at)
    game.save(update_fields=[*save, *stopped, "status", "termination", "ended_by",
                             "finished_at", "bot_waiting_since"])
    signals.game_aborted.send(__name__, game=game)


def void_game(game_id: str, reason: str) -> dict[str, Any]:
    """Stop a game, active or finished, so that it counts nowhere: no result, no rating
    change (the handlers restore any it made), a `voided` frame to its players."""
    reason = reason.strip()[:200]
    if not reason:
        raise GameError(Code.BAD_REQUEST, "a voided game needs a reason")
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status == Game.Status.VOIDED:
            raise GameError(Code.GONE, "the game is already voided", game.ply)
        seats = game.seat_list
        for seat in seats:
            seat.place = None
            seat.outcome = ""
        Seat.objects.bulk_update(seats, ["place", "outcome"])
        game.status = Game.Status.VOIDED
        game.termination = Termination.VOIDED
        game.void_reason = reason
        game.finished_at = game.finished_at or timezone.now()
        game.bot_waiting_since = None
        stopped = clocks.stop_game(game, game.finished_at)
        game.save(update_fields=["status", "termination", "void_reason", "finished_at",
                                 "bot_waiting_since", *stopped])
        _run_handlers(results.Ending(game, voided=True))
        lg = live(game)
        sent = send_on_commit_to_all(game, lambda viewer: {
            "type": "voided", "ply": game.ply, "reason": reason,
            "state": frame_state(game, lg, viewer)})
    return sent.frame(None)


def _run_handlers(ending: results.Ending) -> None:
    results.run_in_transaction(ending)
    transaction.on_commit(lambda: results.run_after_commit(ending))
    # Once the ending's frames are sent (`broadcast.after_sends`: at once outside a
    # socket's call): the work no player waits on (games/results.py, `AFTER_FRAMES`).
    transaction.on_commit(
        lambda: broadcast.after_sends(lambda: results.run_after_frames(ending)))
