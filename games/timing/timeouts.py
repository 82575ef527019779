"""Flags: keeping a game's clocks on its row as turns are played, and making a flag fall
(docs/clocks.md). The arithmetic is `games.timing.clocks`'; several seats' clocks may run at once
(decisions made at the same time), each charged its own time.

- `charge(game, seat, lg)`: the one call of the turn path (`games.turns.play.apply_turn`), after
  the kind applied the decision: charges the mover, starts the clocks of the seats that
  became acting (the others run on) and sets `flag_at`, all saved in the turn's UPDATE (no
  query of its own).
- `refuse_if_fallen(game)`: before a decision is applied (turn, resign, claim, abort): if
  a running clock fell before it arrived, `Fallen` is raised, and the function's
  `flag_when_fallen` wrapper makes the flag fall (in its own transaction); if that ended
  the game the request is refused with `game_over`, otherwise it is taken again. That is
  the flag "on the next message".
- `flag(game_id)`: the check itself. It locks the row, looks again and, for each seat
  whose clock has run out, asks the kind (`LiveGame.timeout_decision`): the decision it
  names is played for the seat through the apply path (`games.turns.play.decide_for_seat`) and
  counted on the seat (`Seat.timeouts`, timeouts in a row: `decided_itself` sets it back
  to 0); with none, the seat loses on time as in Cargo Connect (the finish seam,
  `timed_out`; a game of several seats may go on without it) and an `ended` frame is sent.
  A second call, a repeated beat or a turn that won the race finds nothing to do: a clock
  falls once.
- The scheduled check: after every change that sets `flag_at`, this process's `watcher`
  sleeps until that moment and then sends the Celery task `games.flag_clock` (in the
  embedded default the task runs in the watcher's thread); the beat task
  `games.flag_clocks` (every few seconds) checks every game whose flag is due, for flags
  whose process went away.
"""

from __future__ import annotations

import datetime as dt
import functools
import heapq
import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, cast

from django.db import close_old_connections, connection, models, transaction
from django.utils import timezone

from common.queue import enqueue
from games.botplay import bots
from games.fast import warm
from games.frames import metrics
from games.frames.audiences import send_on_commit_to_all
from games.frames.protocol import Code, GameError, NotFound
from games.frames.states import frame_state
from games.kinds import KindError, LiveGame
from games.models import Game, Seat
from games.timing import clocks
from games.turns import finish
from games.turns.store import live, lock_game

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])
SWEEP_BATCH = 500
WATCH_MARGIN = dt.timedelta(milliseconds=50)  # check just after the flag is due, not at it


class Fallen(GameError):
    """Raised inside a transaction that must not go on: the game's clock fell before the
    request arrived. `flag_when_fallen` turns it into the loss on time and a refusal."""

    def __init__(self, game: Game) -> None:
        super().__init__(Code.GAME_OVER, "time is up", game.ply)
        self.game_id = game.id


def charge(game: Game, seat: int, lg: LiveGame) -> list[str]:
    """In the turn's transaction, after `seat`'s decision was applied to `lg`: the clocks
    after it, on the row object; the fields to save with the turn ([] if untimed)."""
    game_clocks = clocks.of_game(game)
    if game_clocks is None:
        return []
    game_clocks.after_turn(seat, timezone.now(), lg.acting(), lg.over,
                           continuing=lg.mid_decision(seat))
    fields = clocks.put(game, game_clocks)
    watch_on_commit(game)
    return fields


def after_seat_out(game: Game, lg: LiveGame) -> list[str]:
    """A seat left a game that goes on (it resigned with several seats left): if that
    changes whose clock runs, the clocks of the seats no longer acting stop (keeping what
    they used), those of the seats now acting start, the others run on. The fields to
    save."""
    game_clocks = clocks.of_game(game)
    if game_clocks is None:
        return []
    running = game_clocks.running
    game_clocks.start(lg.acting(), timezone.now())
    if game_clocks.running == running:
        return []
    fields = clocks.put(game, game_clocks)
    watch_on_commit(game)
    return fields


def seat_without_clock(game: Game, lg: LiveGame, seat: int) -> list[str]:
    """A bot took over `seat` (its holder left): its clock stops for good (a bot has
    none); the others run on from their own starts. The fields to save."""
    game_clocks = clocks.of_game(game)
    if game_clocks is None or game_clocks.left[seat] is None:
        return []
    game_clocks.starts.pop(seat, None)
    game_clocks.left[seat] = None
    fields = clocks.put(game, game_clocks)
    watch_on_commit(game)
    return fields


def cut_clock(game_id: str, seat: int, left_ms: int, *, increment: bool) -> None:
    """The site sets a live seat's time before its first decision (an arena's berserk,
    docs/tournaments-arena.md): its time left becomes `left_ms` and, without `increment`,
    it gains none for the rest of the game. Under the game's row lock (a new revision: a
    warm copy elsewhere is dropped at its next write); the state is sent to every
    audience after commit. GameError, nothing changed, if the game is over, untimed or
    not live, the seat has no clock or has decided already, or `left_ms` would add
    time."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.is_over:
            raise GameError(Code.GAME_OVER, "the game is over", game.ply)
        game_clocks = clocks.of_game(game)
        if game_clocks is None or not game_clocks.control.live:
            raise GameError(Code.BAD_REQUEST, "this game has no live clock", game.ply)
        if not 0 <= seat < len(game_clocks.left) or game_clocks.left[seat] is None:
            raise GameError(Code.BAD_REQUEST, "this seat has no clock", game.ply)
        if seat in game_clocks.moved or game.turns.filter(seat=seat).exists():
            raise GameError(Code.BAD_REQUEST, "the seat has decided already", game.ply)
        left = game_clocks.left[seat]
        if left is None or not 0 < left_ms <= left:
            raise GameError(Code.BAD_REQUEST, "a clock may only be cut", game.ply)
        game_clocks.left[seat] = left_ms
        if not increment and seat not in game_clocks.no_increment:
            game_clocks.no_increment = sorted([*game_clocks.no_increment, seat])
        game.save(update_fields=clocks.put(game, game_clocks))
        lg = live(game)
        send_on_commit_to_all(game, lambda viewer: {
            "type": "state", "state": frame_state(game, lg, viewer)})


def decided_itself(game: Game, seat: int) -> None:
    """In a turn's transaction, the row locked: `seat` made a decision of its own, so its
    count of timeouts in a row is 0 again. No query unless it had timed out (the warm
    path leaves such a seat's turn to the locked one)."""
    held = game.seat_list[seat]
    if held.timeouts:
        Seat.objects.filter(game=game, index=seat).update(timeouts=0)
        held.timeouts = 0


def refuse_if_fallen(game: Game) -> None:
    """Before a request changes a locked game: raise `Fallen` if its flag is due."""
    if game.flag_at is not None and not game.is_over and timezone.now() > game.flag_at:
        raise Fallen(game)


TAKEN_AGAIN = 3  # times a request is taken again after flags that left the game going on
_taken_again = threading.local()  # game id -> its ply before the flag this call made fall


def flagged_in_this_call(game_id: str, ply: int) -> bool:
    """Was the turn stored at `ply` made by a flag that the request being taken again
    (`flag_when_fallen`, on this thread) made fall? Then the frames of that decision went
    out with the request's own: a seat that sent the very decision the site made for it
    hears it from its group, not again as the answer to a resend (issue #42, point 3)."""
    since = getattr(_taken_again, "plies", {}).get(game_id)
    return since is not None and ply >= since


def flag_when_fallen(func: F) -> F:
    """Wrap a service `func(game_id, ...)` whose transaction calls `refuse_if_fallen`: when
    it raises `Fallen` (its transaction rolled back, nothing written), make the flag fall.
    If that ended the game, refuse the request with `game_over`, naming whose time ran
    out; if the game goes on (the kind decided for the seats whose clock fell, or they are
    out of a game of several seats), take the request again, as it would have been taken
    had the flag fallen first."""

    @functools.wraps(func)
    def wrapper(game_id: str, *args: Any, **kwargs: Any) -> Any:
        plies: dict[str, int] = getattr(_taken_again, "plies", {})
        outer = game_id in plies  # a wrapped service calling another keeps the first ply
        try:
            for _ in range(TAKEN_AGAIN):
                try:
                    return func(game_id, *args, **kwargs)
                except Fallen:
                    if not outer and game_id not in plies:  # the row's, before the flag
                        plies[game_id] = Game.objects.filter(id=game_id).values_list(
                            "ply", flat=True).first() or 0
                        _taken_again.plies = plies
                    seat = flag(game_id)
                    # A warm copy that judged the flag due may be older than the row (the
                    # flag fell on another process): taken again, the request reads the
                    # row under its lock instead of finding the copy's flag due each time.
                    warm.forget(game_id)
                    game = Game.objects.filter(id=game_id).only(
                        "ply", "game_type", "status").first()
                    if game is not None and not game.is_over:
                        continue
                    whose = (f"{game.kind.seat_label(seat)}'s" if game and seat is not None
                             else "the")
                    raise GameError(Code.GAME_OVER, f"the game is over: {whose} time ran "
                                    "out", game.ply if game else None) from None
            return func(game_id, *args, **kwargs)
        finally:
            if not outer:
                plies.pop(game_id, None)

    return cast(F, wrapper)


def flag(game_id: str) -> int | None:
    """Make the clocks that have run out fall (locks the row and looks again), the first
    to fall first. For each such seat, the kind's `timeout_decision` is played for it and
    counted on the seat (`Seat.timeouts`); if the kind has none, the seat loses on time:
    the game ends (`timed_out`) or, with several seats, goes on without it. The first
    seat whose flag fell, if this call did anything; None if there was nothing to do."""
    with transaction.atomic():
        try:
            game = lock_game(game_id)
        except NotFound:
            return None
        if game.is_over or clocks.of_game(game) is None:
            return None
        at = timezone.now()
        lg = live(game)
        fell: list[int] = []
        while not game.is_over and len(fell) < len(game.seat_list):
            game_clocks = clocks.of_game(game)
            assert game_clocks is not None
            fallen = [s for s in game_clocks.fallen_seats(at) if s not in fell]
            if not fallen:
                break
            seat = fallen[0]
            fell.append(seat)
            token = lg.timeout_decision(seat) if seat in lg.acting() else None
            if token is not None and _decided_on_time(game, lg, seat, token):
                if game.seat_list[seat].timeouts >= LEAVE_AFTER_TIMEOUTS:
                    _leaves(game, seat, "timed_out")  # two in a row: a leaver
            elif _hands_leavers_to_bots(game):
                _leaves(game, seat, "out_of_time")  # its clock is exhausted: a leaver
            else:
                _out_on_time(game, lg, game_clocks, seat, at)
            lg = live(game)
        if not fell:
            return None
    log.info("game %s: seats %s ran out of time", game_id, fell)
    return fell[0]


LEAVE_AFTER_TIMEOUTS = 2  # timeouts in a row that make a seat a leaver (web.md section 4)


class PlayAnswers(Protocol):
    """What the play layer does for a seat whose flag fell (games.turns.play's functions)."""

    def decide_for_seat(self, game: Game, lg: LiveGame, seat: int, token: str) -> Any: ...

    def leave(self, game: Game, seat: int, termination: str, *, reason: str | None = None
              ) -> Any: ...


_answers: list[PlayAnswers] = []


def answered_by(answers: PlayAnswers) -> None:
    """The clock says which seat's flag fell; the play layer acts (a decision played for
    the seat, or the seat leaving), which imports this module: it is registered here when
    the games app loads (`games.apps.GamesConfig.ready` registers `games.turns.play`), so this
    module never imports the layer above it."""
    _answers[:] = [answers]


def _play() -> PlayAnswers:
    if not _answers:
        raise RuntimeError("no play layer answers fallen flags (games.apps registers it)")
    return _answers[0]


def _hands_leavers_to_bots(game: Game) -> bool:
    """Does a seat that leaves this game get a bot in its place (the kind says so, and the
    game has more than two seats)?"""
    return bool(game.kind.leaver_stand_in) and len(game.seat_list) > 2


def _leaves(game: Game, seat: int, reason: str) -> None:
    """`seat` leaves on time (two timeouts in a row, or an exhausted clock): as a seat
    that resigns does, handed to a bot or dormant as the kind says, or, with two seats,
    the game is lost on time (games.turns.play.leave)."""
    _play().leave(game, seat, Game.Termination.TIMED_OUT, reason=reason)
    transaction.on_commit(metrics.FLAGS.inc)


def _decided_on_time(game: Game, lg: LiveGame, seat: int, token: str) -> bool:
    """The kind's decision for `seat`, whose clock fell, played through the apply path and
    counted as a timeout on the seat. False (nothing changed) if the kind refuses it."""
    try:
        _play().decide_for_seat(game, lg, seat, token)
    except KindError:
        log.exception("game %s: the timeout decision %r for seat %s was refused",
                      game.id, token, seat)
        return False
    Seat.objects.filter(game=game, index=seat).update(timeouts=models.F("timeouts") + 1)
    game.seat_list[seat].timeouts += 1
    return True


def _out_on_time(game: Game, lg: LiveGame, game_clocks: clocks.Clocks, seat: int,
                 at: dt.datetime) -> None:
    """`seat` loses on time: the kind resigns it for the site; the game ends through the
    finish seam, or a game of several seats goes on without it (its clock shows 0, the
    others run on). The players get an `ended` frame."""
    events = lg.resign(seat)
    game.position = lg.position()  # a kind may move on without the seat (a reveal)
    fields = ["position", *bots.after_change(game, lg)]
    if lg.over:
        finish.finish(game, lg, Game.Termination.TIMED_OUT, fields)  # stops the clocks
    else:  # a game of several seats goes on without this one; the next clocks start
        Seat.objects.filter(game=game, index=seat).update(resigned=True)
        game.seat_list[seat].resigned = True
        game_clocks.ran_out(seat)
        game_clocks.start(lg.acting(), at)
        fields += clocks.put(game, game_clocks)
        game.save(update_fields=fields)
        watch_on_commit(game)
    send_on_commit_to_all(game, lambda viewer: {
        "type": "ended", "ply": game.ply, "termination": Game.Termination.TIMED_OUT,
        "seat": seat, "side": game.kind.seat_key(seat),
        "events": lg.events_for(events, viewer), "state": frame_state(game, lg, viewer)})
    bots.send_task_on_commit(game)
    transaction.on_commit(metrics.FLAGS.inc)


def flag_if_due(game: Game) -> bool:
    """On opening a game (its page, its socket): make a due flag fall now. No query
    unless it is due. True if the game changed (load it again)."""
    if game.flag_at is None or game.is_over or timezone.now() <= game.flag_at:
        return False
    return flag(game.id) is not None


def due_games(at: dt.datetime | None = None) -> list[str]:
    """Active games whose flag is due."""
    games = Game.objects.filter(status=Game.Status.ACTIVE, flag_at__lt=at or timezone.now())
    return list(games.order_by("flag_at").values_list("id", flat=True)[:SWEEP_BATCH])


def flag_due_games() -> list[str]:
    """The beat task's body: make every due flag fall (each once, however often it runs)."""
    return [game_id for game_id in due_games() if flag(game_id) is not None]


# --- the scheduled check in this process -----------------------------------------------------


def enqueue_flag_check(game_id: str) -> None:
    """Send the flag check's task; with CELERY_TASK_ALWAYS_EAGER it runs here, now."""
    enqueue("games.flag_clock", game_id)


class Watcher:
    """One thread that sleeps until the earliest flag it was told of, then sends that
    game's flag check. Its database connection is closed after each check, so it holds
    none while it sleeps.

    Only a game's latest flag here is checked: each change of a timed game moves its flag
    and tells the watcher again, so without this every turn's entry sent a Celery task
    when its time came, long after the game had moved on (a 200-player arena: 35,000
    `games.flag_clock` tasks in 10 minutes, 15 ms of the worker's time each, queued
    before the arena's passes). The latest is the one told with the highest revision
    (commits of one game in this process may call back out of order); a game that ended
    or stopped its clocks is forgotten. A flag moved by another process is that
    process's to check, and the beat's `games.flag_clocks` is the backstop for all."""

    def __init__(self) -> None:
        self.heap: list[tuple[dt.datetime, str, dt.datetime]] = []
        self.latest: dict[str, tuple[int, dt.datetime | None]] = {}
        self.wake = threading.Condition()
        self.thread: threading.Thread | None = None
        self.checked = 0  # checks sent so far (for tests and debugging)
        self.superseded = 0  # entries passed over: their game's flag had moved since

    def add(self, game_id: str, when: dt.datetime, revision: int = 0) -> None:
        with self.wake:
            if not self._told(game_id, revision, when):
                return
            heapq.heappush(self.heap, (when + WATCH_MARGIN, game_id, when))
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="clock-watch",
                                               daemon=True)
                self.thread.start()
            self.wake.notify()

    def forget(self, game_id: str, revision: int = 0) -> None:
        """The game has no flag any more (it ended, or no clock runs)."""
        with self.wake:
            self._told(game_id, revision, None)

    def _told(self, game_id: str, revision: int, when: dt.datetime | None) -> bool:
        """Note the game's flag as of `revision`, unless a later one is known."""
        known = self.latest.get(game_id)
        if known is not None and known[0] > revision:
            return False
        self.latest[game_id] = (revision, when)
        return True

    def clear(self) -> None:
        with self.wake:
            self.heap.clear()
            self.latest.clear()
            self.wake.notify()

    def pending(self) -> list[tuple[dt.datetime, str]]:
        """The checks still to send: (when, game), each game's latest flag only."""
        with self.wake:
            return sorted((at, game_id) for at, game_id, when in self.heap
                          if self._is_latest(game_id, when))

    def _is_latest(self, game_id: str, when: dt.datetime) -> bool:
        known = self.latest.get(game_id)
        return known is not None and known[1] == when

    def due(self) -> list[str]:
        """Wait until some flag is due; the games to check."""
        with self.wake:
            while True:
                if self.heap:
                    wait = (self.heap[0][0] - timezone.now()).total_seconds()
                    if wait <= 0:
                        return self._pop_due(timezone.now())
                    self.wake.wait(min(wait, 60.0))
                else:
                    self.wake.wait(60.0)

    def _pop_due(self, now: dt.datetime) -> list[str]:
        games = []
        while self.heap and self.heap[0][0] <= now:
            _, game_id, when = heapq.heappop(self.heap)
            if self._is_latest(game_id, when):
                games.append(game_id)
                del self.latest[game_id]
            else:
                self.superseded += 1
        return games

    def run(self) -> None:
        while True:
            for game_id in dict.fromkeys(self.due()):
                try:
                    enqueue_flag_check(game_id)
                except Exception:  # the broker is down: the beat's sweep checks it later
                    log.exception("the flag check of game %s could not be sent", game_id)
                finally:
                    close_old_connections()
                    connection.close()
                    self.checked += 1


watcher = Watcher()


def watch_on_commit(game: Game) -> None:
    """Once the change commits, have this process check the game when its flag is due (or
    forget it, if no flag is left)."""
    when, game_id, revision = game.flag_at, game.id, game.revision
    if when is not None:
        transaction.on_commit(lambda: watcher.add(game_id, when, revision))
    else:
        transaction.on_commit(lambda: watcher.forget(game_id, revision))
