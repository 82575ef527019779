"""The common turn from a warm copy (games.fast.warm), and copies that follow turns other
processes wrote.

`apply_warm` (on a live-db thread) and `apply_turn_on_loop` (on the event loop) apply a
decision to the process's warm copy and write it with the one conditional statement
(games.fast.statements); either returns None, with nothing written, for anything it cannot
decide alone, and the caller takes the locked path (`games.turns.play._apply_locked`). Both serve
every kind: one seat at a time (the decision numbered by the game's ply) or seats deciding
at the same time (numbered by the seat's own count, `LiveGame.sequence`), hiding nothing
(one audience) or hiding (a frame built for each audience, games.frames.audiences). `follow`
brings a copy one revision behind up to a turn heard from the game's group (kinds of one
seat at a time).

Fast path (docs/fast-path.md, "games/fast/turns.py"):
replaces `_apply_locked` (Django's transaction and row lock) for the common turn, and
dropping a warm copy when another process wrote a turn. Relies on no library internals (on
the engine being deterministic, for `follow`). Measured: the warm and loop turns with
games.fast.warm and games.fast.loopdb, not alone; `follow`, interleaved (2026-12-02
13:05–13:45 UTC, `scripts/load_run.sh 400 60`): split sockets (`ROUTE=socket`) 5.49 /
5.95 → 1.28 / 1.34 ms a turn, 296–318 → 419 turns/s, ack p95 0.66–0.83 s → 6–7 ms. Off
(`LIVE_FAST_PATH=0`) every function here returns None or does nothing.
"""

from __future__ import annotations

import logging

import psycopg

from games.actors import Actor, SessionGuard, seat_of
from games.fast import enabled, queue, warm
from games.fast.guard import in_sql
from games.fast.statements import NewTurn, awrite_turn, write_turn
from games.frames import broadcast, metrics
from games.frames.audiences import audiences
from games.frames.broadcast import Delivery
from games.frames.protocol import SignedOut
from games.kinds import KindError, LiveGame
from games.models import Game
from games.timing import timeouts
from games.turns.applied import TurnResult, advanced, frame_of, made, sent

log = logging.getLogger("games.turns.play")


def apply_warm(game_id: str, actor: Actor | None, ply: int, token: str,
               guard: SessionGuard | None) -> TurnResult | None:
    """The turn from this process's warm copy of the game, if it has one and the copy can
    decide; None otherwise (the caller takes the locked path)."""
    if not enabled():
        return None
    entry = warm.get(game_id)
    if entry is None:
        return None
    with entry.lock:
        return _apply_warm(entry, actor, ply, token, guard)


def _apply_warm(entry: warm.Warm, actor: Actor | None, ply: int, token: str,
                guard: SessionGuard | None) -> TurnResult | None:
    """The common turn, from this process's warm copy, in one conditional write. None
    when the copy cannot decide alone: a refusal (the locked path words it from the
    stored game), a turn that ends the game (the finish seam runs under the lock), a write
    refused because the game changed elsewhere or the session ended."""
    applied = _applied_to_copy(entry, actor, ply, token, guard)
    if applied is None:
        return None
    game, lg, turn, fields = applied
    if not write_turn(game, fields, turn, guard if guard is not None and in_sql(guard)
                      else None):
        return None
    metrics.turn_applied("warm")
    try:  # every audience's frame built and sent before the copy is warm again: seats
        return sent(game, turn, lg)  # deciding at once would otherwise change it meanwhile
    finally:
        warm.keep(game, lg)


def _applied_to_copy(entry: warm.Warm, actor: Actor | None, ply: int, token: str,
                     guard: SessionGuard | None
                     ) -> tuple[Game, LiveGame, NewTurn, list[str]] | None:
    """The decision applied to the warm copy, which is forgotten meanwhile (until its
    write succeeds, the copy is ahead of the row): the game, its kind's game, the turn and
    the fields to write. None if the copy cannot decide alone (forgotten too once the
    decision was tried on it: the locked path warms the game again after its commit)."""
    game, lg = entry.game, entry.lg
    if warm.get(game.id) is not entry:  # replaced while this thread waited for the lock
        return None
    seat = seat_of(game, actor)
    # `ply` is the decision's number: the game's ply, or with seat sequences the seat's own
    # count; `deciding` lets a committed seat replace its plan (Cargo Express).
    if seat is None or game.is_over or ply != lg.sequence(seat) or not lg.deciding(seat):
        return None
    if game.seat_list[seat].timeouts:  # its count of timeouts is reset under the lock
        return None
    if guard is not None and not in_sql(guard) and not guard.holds():
        raise SignedOut()
    timeouts.refuse_if_fallen(game)
    warm.forget(game.id)
    try:
        events = lg.apply(seat, token)
    except KindError:
        return None
    if lg.over or _begins_a_persons_turn(game, lg):
        return None
    # Stored at the game's ply before it (as the locked path's `_stored` does), which the
    # write also requires of the row.
    turn = NewTurn(ply=game.ply, token=token, seat=seat, events=events)
    return game, lg, turn, advanced(game, lg, seat)


def _begins_a_persons_turn(game: Game, lg: LiveGame) -> bool:
    """Did the decision begin a turn that a person plays (its card revealed) while a seat
    has a turn queued (games.turns.preturns)? Then the locked path decides: it plays the queue.
    With none queued the copy decides: its write requires the row's count of queues to be
    the copy's (`Game.queued_turns`, games.fast.statements), which queueing changes under
    the row lock, so a queue stored meanwhile sends the decision to the locked path."""
    if not game.queued_turns:
        return False
    begun = lg.turn_key()
    return begun is not None and not game.seat_list[begun[0]].playing_level


async def apply_turn_on_loop(game_id: str, *, actor: Actor | None, ply: int, token: str,
                             guard: SessionGuard | None) -> TurnResult | None:
    """`apply_turn` without leaving the event loop, for the commonest turn of all: a warm
    game (games.warm) without clocks or bots, whose socket's session is checked by the
    write (`games.fast.guard.in_sql`). Written by `awrite_turn` and sent to the game's group
    once written. None when this path cannot decide, with nothing written: the caller
    takes `apply_turn` on a thread, which decides and words any refusal. A copy whose lock
    a thread holds is left to that thread's turn (the loop never waits on a lock)."""
    if not enabled():
        return None
    async with queue.turn_of(game_id):
        return await _apply_on_loop(game_id, actor, ply, token, guard)


async def _apply_on_loop(game_id: str, actor: Actor | None, ply: int, token: str,
                         guard: SessionGuard | None) -> TurnResult | None:
    """`apply_turn_on_loop` in the game's turn on this loop (games.fast.queue)."""
    entry = warm.get(game_id)
    if entry is None or not _loop_may_play(entry.game, guard):
        return None
    if not entry.lock.acquire(blocking=False):
        return None
    try:
        applied = _applied_to_copy(entry, actor, ply, token, guard)
    finally:
        entry.lock.release()
    if applied is None:
        return None
    game, lg, turn, fields = applied
    try:
        written = await awrite_turn(game, fields, turn, guard)
    except psycopg.Error as error:
        log.info("a turn's write from the event loop failed (%s); the threaded path takes "
                 "it", error)
        return None
    if not written:
        return None
    metrics.turn_applied("loop")
    try:  # as `_apply_warm`: the copy is warm again once every frame is built and sent (the
        return await _asend_to_all(game, turn, lg)  # loop runs other sockets' decisions
    finally:  # while a frame is sent)
        warm.keep(game, lg)


async def _asend_to_all(game: Game, turn: NewTurn, lg: LiveGame) -> TurnResult:
    """The loop's `applied.sent`: the turn's frame built for each audience (one for a kind
    that hides nothing; each seat and the spectators for one that hides, games.frames.audiences)
    and sent to that audience's group alone; the result is the deciding seat's."""
    frames, deliveries = {}, {}
    # The deciding seat's first: its frame is its acknowledgement.
    for group, viewer in sorted(audiences(game), key=lambda each: each[1] != turn.seat):
        frame = frames[viewer] = frame_of(game, turn, lg, viewer)
        deliveries[viewer] = Delivery(await broadcast.asend_message(
            group, broadcast.group_message(frame, game.revision, made(turn), group)))
    audience = turn.seat if turn.seat in frames else None
    return TurnResult(frames[audience], delivery=deliveries[audience])


def _loop_may_play(game: Game, guard: SessionGuard | None) -> bool:
    """What `apply_turn_on_loop` leaves to the threads: the clocks' and the bots' work on
    commit (Django's `on_commit` is for threads), sessions that are not in the database."""
    return _untimed(game) and not game.bot_seats and guard is not None and in_sql(guard)


def _untimed(game: Game) -> bool:
    return game.clock is None and game.flag_at is None


TURN_FIELDS = ["position", "ply", "tokens"]  # what `advanced` writes of an untimed game


def _decided_by_the_turn(game: Game, fields: list[str]) -> bool:
    """Did a turn just applied to an untimed game's copy set only what the turn decides
    (`fields`, from `advanced`)? The position, the ply, the tokens; and in a game with
    bots `bot_waiting_since` only when it was cleared (a person to move next: after
    CargoBot's turn). A bot to move next waits since the moment of the write, which a
    copy elsewhere cannot know."""
    return fields == TURN_FIELDS or (fields == [*TURN_FIELDS, "bot_waiting_since"]
                                     and game.bot_waiting_since is None)


def follow(game_id: str, revision: int, turn: broadcast.TurnMade | None) -> None:
    """A frame heard from the game's group, written at `revision` (by this process or
    another; `turn` the turn that made it): bring this process's warm copy up to it.
    A copy of an untimed game at the revision just before a turn becomes the stored row by
    applying the same turn (the engine is deterministic) when the turn decides all it
    changed (`_decided_by_the_turn`); any other older copy is dropped, as is one a thread
    is using. So a game whose players' sockets two processes serve (a failover, a
    misrouted socket) still plays from warm copies instead of the locked path, and so
    does a person's next turn after CargoBot's (written by a Celery worker). The
    conditional write trusts a copy to be the stored row at its revision: nothing is
    advanced but what the turn alone determines."""
    if not enabled():
        return
    entry = warm.take_older(game_id, revision)
    if entry is None or turn is None or entry.game.revision != revision - 1:
        return
    game, lg = entry.game, entry.lg
    ply, seat, token = turn
    if game.ply != ply or game.is_over or not _untimed(game) or game.kind.seat_sequences \
            or not entry.lock.acquire(blocking=False):
        return
    try:
        try:
            lg.apply(seat, token)
        except KindError:
            return
        if lg.over or not _decided_by_the_turn(game, advanced(game, lg, seat)):
            return
        game.revision = revision
    finally:
        entry.lock.release()
    warm.keep_if_cold(game, lg)
