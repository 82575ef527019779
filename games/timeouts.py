"""Flags: keeping a game's clocks on its row as turns are played, and making a flag fall
(docs/clocks.md). The arithmetic is `games.clocks`'.

- `charge(game, seat, lg)`: the one call of the turn path (`games.play.apply_turn`), after
  the kind applied the decision: charges the mover, starts the next clock and sets
  `flag_at`, all saved in the turn's UPDATE (no query of its own).
- `refuse_if_fallen(game)`: before a decision is applied (turn, resign, claim, abort): if
  the running clock fell before it arrived, `Fallen` is raised, and the function's
  `flag_when_fallen` wrapper records the loss on time (in its own transaction) and refuses
  the request with `game_over`. That is the flag "on the next message".
- `flag(game_id)`: the check itself. It locks the row, looks again and, if a clock has run
  out, ends the game through the finish seam (`timed_out`: the kind resigns the seat for
  it) and sends an `ended` frame. A second call, a repeated beat or a turn that won the
  race finds nothing to do: a game ends on time once.
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
from typing import Any, TypeVar, cast

from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from . import bots, clocks, finish, metrics
from .audiences import send_on_commit_to_all
from .kinds import LiveGame
from .models import Game, Seat
from .protocol import Code, GameError, NotFound, frame_state
from .store import live, lock_game

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
    game_clocks.after_turn(seat, timezone.now(), lg.acting(), lg.over)
    fields = clocks.put(game, game_clocks)
    watch_on_commit(game)
    return fields


def after_seat_out(game: Game, lg: LiveGame) -> list[str]:
    """A seat left a game that goes on (it resigned with several seats left): if that
    changes whose clock runs, the running clocks are charged so far and the next start
    now. The fields to save."""
    game_clocks = clocks.of_game(game)
    if game_clocks is None:
        return []
    acting = [s for s in lg.acting() if game_clocks.left[s] is not None]
    if acting == game_clocks.running:
        return []
    at = timezone.now()
    game_clocks.stop(at)
    game_clocks.start(acting, at)
    fields = clocks.put(game, game_clocks)
    watch_on_commit(game)
    return fields


def seat_without_clock(game: Game, lg: LiveGame, seat: int) -> list[str]:
    """A bot took over `seat` (its holder left): its clock stops for good, the others run
    on. The fields to save."""
    game_clocks = clocks.of_game(game)
    if game_clocks is None or game_clocks.left[seat] is None:
        return []
    at = timezone.now()
    game_clocks.stop(at)
    game_clocks.left[seat] = None
    game_clocks.start([s for s in lg.acting() if game_clocks.left[s] is not None], at)
    fields = clocks.put(game, game_clocks)
    watch_on_commit(game)
    return fields


def refuse_if_fallen(game: Game) -> None:
    """Before a request changes a locked game: raise `Fallen` if its flag is due."""
    if game.flag_at is not None and not game.is_over and timezone.now() > game.flag_at:
        raise Fallen(game)


def flag_when_fallen(func: F) -> F:
    """Wrap a service `func(game_id, ...)` whose transaction calls `refuse_if_fallen`: when
    it raises `Fallen` (its transaction rolled back, nothing written), record the loss on
    time and refuse the request with `game_over`, naming whose time ran out."""

    @functools.wraps(func)
    def wrapper(game_id: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return func(game_id, *args, **kwargs)
        except Fallen:
            seat = flag(game_id)
            game = Game.objects.filter(id=game_id).only("ply", "game_type").first()
            whose = f"{game.kind.seat_label(seat)}'s" if game and seat is not None else "the"
            raise GameError(Code.GAME_OVER, f"the game is over: {whose} time ran out",
                            game.ply if game else None) from None

    return cast(F, wrapper)


def flag(game_id: str) -> int | None:
    """End the game on time if a running clock has run out (locks the row and looks
    again). The seat whose flag fell, if this call ended the game (or, with several seats,
    put that seat out); None if there was nothing to do."""
    with transaction.atomic():
        try:
            game = lock_game(game_id)
        except NotFound:
            return None
        game_clocks = clocks.of_game(game)
        if game.is_over or game_clocks is None:
            return None
        at = timezone.now()
        fallen = game_clocks.fallen_seats(at)
        if not fallen:
            return None
        seat = fallen[0]
        lg = live(game)
        events = lg.resign(seat)
        fields = bots.after_change(game, lg)
        if lg.over:
            finish.finish(game, lg, Game.Termination.TIMED_OUT, fields)  # stops the clocks
        else:  # a game of several seats goes on without this one; the next clock starts
            Seat.objects.filter(game=game, index=seat).update(resigned=True)
            game.seat_list[seat].resigned = True
            game_clocks.stop(at)  # the other running clocks keep what they used
            game_clocks.left[seat] = 0
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
    log.info("game %s: seat %s ran out of time", game_id, seat)
    return seat


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
    from .tasks import flag_clock

    flag_clock.apply_async((game_id,))


class Watcher:
    """One thread that sleeps until the earliest flag it was told of, then sends that
    game's flag check (a game told of again later simply gets a second, harmless check).
    Its database connection is closed after each check, so it holds none while it
    sleeps."""

    def __init__(self) -> None:
        self.heap: list[tuple[dt.datetime, str]] = []
        self.wake = threading.Condition()
        self.thread: threading.Thread | None = None
        self.checked = 0  # checks sent so far (for tests and debugging)

    def add(self, game_id: str, when: dt.datetime) -> None:
        with self.wake:
            heapq.heappush(self.heap, (when + WATCH_MARGIN, game_id))
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="clock-watch",
                                               daemon=True)
                self.thread.start()
            self.wake.notify()

    def clear(self) -> None:
        with self.wake:
            self.heap.clear()
            self.wake.notify()

    def pending(self) -> list[tuple[dt.datetime, str]]:
        with self.wake:
            return sorted(self.heap)

    def due(self) -> list[str]:
        """Wait until some flag is due; the games to check."""
        with self.wake:
            while True:
                if self.heap:
                    wait = (self.heap[0][0] - timezone.now()).total_seconds()
                    if wait <= 0:
                        now = timezone.now()
                        games = []
                        while self.heap and self.heap[0][0] <= now:
                            games.append(heapq.heappop(self.heap)[1])
                        return games
                    self.wake.wait(min(wait, 60.0))
                else:
                    self.wake.wait(60.0)

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
    """Once the change commits, have this process check the game when its flag is due."""
    when, game_id = game.flag_at, game.id
    if when is not None:
        transaction.on_commit(lambda: watcher.add(game_id, when))
