"""Bot seats in the turn path: whether a game now waits on a bot (`after_change`), sending
each bot's Celery task once the change that made it act has committed, and sending again the
tasks that were lost (a broker that refused them, a sweep of games that waited too long).
It imports nothing of the apply path, which imports it (games.turns.play); the bot's decision
itself, through that path, is `games.botplay.bot_games.play_bot_turn` (docs/bot-games.md).

A bot's decision is computed by the Celery task `games.tasks.bot_turn(game_id, ply)`, sent
only after the change that made the bot's seat act has committed, and played through
`games.turns.play.apply_turn` like anyone's, acting as `Actor.bot(level)`: a task for a ply that is
no longer current does nothing. `bot_waiting_since` marks games waiting on a bot; a beat
sweep (and opening the game page) re-sends tasks that were lost.

In a game whose seats decide at the same time (`GameKind.seat_sequences`), every bot seat
that is to act gets a task of its own, `bot_turn(game_id, number, seat=K)`, guarded by that
seat's own count of decisions; so several bots decide at once and none waits for another.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from common.queue import enqueue
from games.frames import broadcast
from games.kinds import LiveGame
from games.models import Game

log = logging.getLogger(__name__)

BOT_SWEEP_AFTER = timedelta(seconds=20)  # a game waiting this long on a bot is re-enqueued
BOT_SWEEP_EXPIRES = 60  # seconds: a sweep's re-sent task is dropped if not started by then
RANDOM = "random"  # a seat drawn at random (games.botplay.bot_games)


def after_change(game: Game, lg: LiveGame) -> list[str]:
    """Inside the transaction that changed a game: note whether it now waits on a bot
    (`bot_waiting_since`); the fields to save."""
    bots = set(game.bot_seats)
    if not bots:
        return []
    waiting = not lg.over and any(seat in bots for seat in lg.acting())
    game.bot_waiting_since = timezone.now() if waiting else None
    return ["bot_waiting_since"]


def send_task_on_commit(game: Game) -> None:
    """If the game now waits on a bot, send the bot's task for this ply (one per bot seat
    to act, in a game whose seats decide at the same time) once the transaction commits
    (never before: the task must see the human's turn)."""
    if game.bot_waiting_since is None or game.is_over:
        return
    for number, seat in due_tasks(game):
        # A broker that is down must not fail the human's committed turn: the task is kept
        # and sent as soon as the broker answers (`resend`). In the embedded default it runs
        # here. After the frames of the change: a quick worker's reply must not overtake
        # them.
        transaction.on_commit(functools.partial(broadcast.after_sends, functools.partial(
            send_or_keep, game.id, number, seat)))


def due_tasks(game: Game) -> list[tuple[int, int | None]]:
    """The bot tasks a game waiting on bots needs now: (the number the decision carries,
    the seat) for each bot seat to act in a game with seat sequences, else one task for
    the game's ply (its bot seat found by the task)."""
    if not game.kind.seat_sequences:
        return [(game.ply, None)]
    from games.turns.store import live

    lg = live(game)
    return [(lg.sequence(seat), seat) for seat in lg.acting() if seat in game.bot_seats]


class Resender:
    """Bot tasks the broker refused, sent again by a thread of this process every
    `every` seconds until it answers (then at once, not at the next sweep). One warning per
    outage; duplicates are harmless (the task plays once per ply)."""

    def __init__(self, every: float = 1.0) -> None:
        self.every = every
        self.pending: dict[tuple[str, int | None], int] = {}
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def keep(self, game_id: str, ply: int, error: BaseException, seat: int | None = None
             ) -> None:
        key = (game_id, seat)
        with self.lock:
            first = not self.pending
            self.pending[key] = max(ply, self.pending.get(key, ply))
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="bot-resend",
                                               daemon=True)
                self.thread.start()
        if first:
            log.warning("the Celery broker refused CargoBot's task (%s: %s); it is sent again "
                        "as soon as the broker answers", type(error).__name__, error)

    def run(self) -> None:
        while True:
            time.sleep(self.every)
            with self.lock:
                if not self.pending:
                    self.thread = None
                    return
                batch = dict(self.pending)
            try:
                for (game_id, seat), ply in batch.items():
                    _enqueue(game_id, ply, seat, expires=BOT_SWEEP_EXPIRES)
                    with self.lock:
                        if self.pending.get((game_id, seat)) == ply:
                            del self.pending[(game_id, seat)]
            except Exception:  # still down (or the eager task failed): try again later
                continue
            log.warning("the Celery broker answers again; CargoBot's tasks were re-sent")


resender = Resender()


def send_or_keep(game_id: str, ply: int, seat: int | None = None) -> None:
    from kombu.exceptions import OperationalError

    try:
        _enqueue(game_id, ply, seat)
    except (OperationalError, OSError) as error:  # the broker is down
        resender.keep(game_id, ply, error, seat)
    except Exception:  # the eager task itself failed: the committed turn stands
        log.exception("CargoBot's task for game %s at ply %s failed", game_id, ply)


def _enqueue(game_id: str, ply: int, seat: int | None, **options: Any) -> None:
    if seat is None:
        enqueue_bot_turn(game_id, ply, **options)
    else:
        enqueue_bot_turn(game_id, ply, seat=seat, **options)


def enqueue_bot_turn(game_id: str, ply: int, **options: Any) -> None:
    """Send the bot's task for (game, ply), or with `seat=K` for that bot seat's decision
    numbered `ply`; with CELERY_TASK_ALWAYS_EAGER it runs now."""
    seat = options.pop("seat", None)
    enqueue("games.bot_turn", *((game_id, ply) if seat is None else (game_id, ply, seat)),
            **options)


def stalled_bot_games(older_than: timedelta = BOT_SWEEP_AFTER) -> list[tuple[str, int]]:
    """(id, ply) of active games that have waited on a bot longer than `older_than`."""
    cutoff = timezone.now() - older_than
    games = Game.objects.filter(status=Game.Status.ACTIVE, bot_waiting_since__lt=cutoff)
    return list(games.order_by("bot_waiting_since").values_list("id", "ply")[:500])


def sweep_bot_games(older_than: timedelta = BOT_SWEEP_AFTER) -> list[str]:
    """Send the bot's task again for every game that waited on it too long (its task was
    lost: no worker was running, the broker was down, a worker died mid-turn). Duplicates
    are harmless: the task plays once per ply."""
    swept = []
    for game_id, ply in stalled_bot_games(older_than):
        _enqueue_due(game_id, ply)
        swept.append(game_id)
    if swept:
        log.info("re-sent CargoBot's turn for %d game(s): %s", len(swept), ", ".join(swept))
    return swept


def nudge_bot(game: Game) -> bool:
    """Opening a game that has waited on a bot too long sends its task again (in the
    embedded default no beat runs the sweep)."""
    since = game.bot_waiting_since
    if since is None or game.is_over or timezone.now() - since < BOT_SWEEP_AFTER:
        return False
    for number, seat in due_tasks(game):
        _enqueue(game.id, number, seat, expires=BOT_SWEEP_EXPIRES)
    return True


def _enqueue_due(game_id: str, ply: int) -> None:
    """The sweep's re-sent tasks for a game that waited too long at `ply`."""
    from games.turns.store import get_game

    game = get_game(game_id)
    if not game.kind.seat_sequences:
        enqueue_bot_turn(game_id, ply, expires=BOT_SWEEP_EXPIRES)
        return
    for number, seat in due_tasks(game):
        _enqueue(game_id, number, seat, expires=BOT_SWEEP_EXPIRES)

