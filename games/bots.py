"""Games with bot seats (casual games against CargoBot; docs/bot-games.md).

A bot's decision is computed by the Celery task `games.tasks.bot_turn(game_id, ply)`, sent
only after the change that made the bot's seat act has committed, and played through
`games.play.apply_turn` like anyone's, acting as `Actor.bot(level)`: a task for a ply that is
no longer current does nothing. `bot_waiting_since` marks games waiting on a bot; a beat
sweep (and opening the game page) re-sends tasks that were lost.

In a game whose seats decide at the same time (`GameKind.seat_sequences`), every bot seat
that is to act gets a task of its own, `bot_turn(game_id, number, seat=K)`, guarded by that
seat's own count of decisions; so several bots decide at once and none waits for another.
A bot decides from its own seat's view only: the kind is handed `LiveGame.redacted(seat)`.
"""

from __future__ import annotations

import functools
import logging
import random
import threading
import time
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from . import broadcast, clocks, metrics, play
from .actors import Actor
from .kinds import LiveGame, get_kind
from .models import Game
from .protocol import Code, GameError

log = logging.getLogger(__name__)

BOT_SWEEP_AFTER = timedelta(seconds=20)  # a game waiting this long on a bot is re-enqueued
BOT_SWEEP_EXPIRES = 60  # seconds: a sweep's re-sent task is dropped if not started by then
RANDOM = "random"


def create_bot_game(*, actor: Actor | None, level: str, options: dict[str, Any],
                    seat: str = RANDOM, game_type: str = "cargo-connect",
                    time_control: str = "") -> Game:
    """A casual game against CargoBot at `level`: `actor` (a member or a guest with a
    browser session) takes the seat named `seat` ("blue", "orange" or "random"). A
    member's game counts for the vs CargoBot rating; a guest's counts nowhere. With a live
    `time_control` the player has a clock (CargoBot has none); correspondence is refused."""
    kind = get_kind(game_type)
    try:
        control = clocks.parse(time_control)
    except ValueError as e:
        raise GameError(Code.BAD_REQUEST, str(e)) from None
    if control is not None and not control.live:
        raise GameError(Code.BAD_REQUEST, "a game against CargoBot is untimed or live, "
                        f"not {control.label}")
    if level not in kind.bot_levels:
        raise GameError(Code.BAD_REQUEST,
                        f"level must be {', '.join(kind.bot_levels)}, not {level!r}")
    keys = [kind.seat_key(i) for i in range(2)]
    if seat != RANDOM and seat not in keys:
        raise GameError(Code.BAD_REQUEST,
                        f"colour must be random, {' or '.join(keys)}, not {seat!r}")
    if actor is None or actor.kind == "bot":
        raise GameError(Code.NOT_A_PLAYER, "a game against CargoBot needs a member or a "
                        "guest with a browser session")
    human = keys.index(seat) if seat != RANDOM else random.SystemRandom().randrange(2)
    seats: list[Actor | None] = [Actor.bot(level), Actor.bot(level)]
    seats[human] = actor
    return play.create_game(game_type=game_type, seats=seats, options=options,
                            mode=Game.Mode.BOT, rated=actor.kind == "member",
                            time_control=control.code if control else "")


def active_bot_games(actor: Actor | None) -> list[Game]:
    """The games against CargoBot a member or a guest is still playing."""
    if actor is None or actor.kind == "bot":
        return []
    holder = Q(seats__user_id=actor.user_id) if actor.kind == "member" \
        else Q(seats__guest_key=actor.guest_key)
    games = Game.objects.filter(holder, mode=Game.Mode.BOT, status=Game.Status.ACTIVE)
    return list(games.order_by("-created_at").prefetch_related("seats")[:10])


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
    from .store import live

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
    from .tasks import bot_turn

    seat = options.pop("seat", None)
    bot_turn.apply_async((game_id, ply) if seat is None else (game_id, ply, seat), **options)


def play_bot_turn(game_id: str, ply: int, *, quick: bool = False, seat: int | None = None
                  ) -> str:
    """The bot's decision at `ply`, through `apply_turn`. Does nothing if the game is gone,
    over, or no longer at `ply` with a bot to move. Returns what happened: "played", or why
    nothing was ("stale_ply", "game_over", "duplicate", ...). `quick` thinks at the kind's
    quick level instead of the seat's (the task's fallback when time runs short). With
    `seat` (games whose seats decide at the same time), that bot seat decides, if its own
    count of decisions is still `ply`."""
    from .store import get_game, live

    try:
        game = get_game(game_id)
    except GameError:
        return "not_found"
    if not game.bot_seats:
        return "not_a_bot_game"
    if game.is_over:
        return "game_over"
    lg = live(game)
    if seat is None:
        if game.ply != ply:
            return "stale_ply"
        seat = next((s for s in lg.acting() if s in game.bot_seats), None)
        if seat is None:
            return "not_your_turn"
    elif seat not in game.bot_seats:
        return "not_a_bot_seat"
    elif lg.sequence(seat) != ply:
        return "stale_ply"
    elif seat not in lg.acting():
        return "not_your_turn"
    seat_level = game.seat_list[seat].playing_level
    assert seat_level is not None
    # Thinking happens outside the transaction: no row lock is held meanwhile; the bot
    # sees only what its seat may see.
    level = game.kind.quick_bot_level if quick and game.kind.quick_bot_level else seat_level
    token = game.kind.bot_decision(lg.redacted(seat), seat, level, game.bot_seed or 0)
    try:
        result = play.apply_turn(game_id, actor=Actor.bot(seat_level, seat), ply=ply,
                                 token=token)
    except GameError as refused:  # the game moved on (a resign, another copy of this task)
        if refused.error == Code.ILLEGAL:
            log.error("CargoBot chose an illegal turn %r in game %s at ply %s: %s",
                      token, game_id, ply, refused.message)
        return refused.code
    if result.duplicate:
        return "duplicate"
    metrics.bot_played(game.bot_waiting_since)
    return "played"


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
    from .store import get_game

    game = get_game(game_id)
    if not game.kind.seat_sequences:
        enqueue_bot_turn(game_id, ply, expires=BOT_SWEEP_EXPIRES)
        return
    for number, seat in due_tasks(game):
        _enqueue(game_id, number, seat, expires=BOT_SWEEP_EXPIRES)

