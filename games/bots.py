"""Games with bot seats (casual games against CargoBot; docs/bot-games.md).

A bot's decision is computed by the Celery task `games.tasks.bot_turn(game_id, ply)`, sent
only after the change that made the bot's seat act has committed, and played through
`games.play.apply_turn` like anyone's, acting as `Actor.bot(level)`: a task for a ply that is
no longer current does nothing. `bot_waiting_since` marks games waiting on a bot; a beat
sweep (and opening the game page) re-sends tasks that were lost.
"""

from __future__ import annotations

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
    """If the game now waits on a bot, send the bot's task for this ply once the
    transaction commits (never before: the task must see the human's turn)."""
    if game.bot_waiting_since is None or game.is_over:
        return
    game_id, ply = game.id, game.ply
    # A broker that is down must not fail the human's committed turn: the task is kept and
    # sent as soon as the broker answers (`resend`). In the embedded default it runs here.
    # After the frames of the change: a quick worker's reply must not overtake them.
    transaction.on_commit(lambda: broadcast.after_sends(lambda: send_or_keep(game_id, ply)))


class Resender:
    """Bot tasks the broker refused, sent again by a thread of this process every
    `every` seconds until it answers (then at once, not at the next sweep). One warning per
    outage; duplicates are harmless (the task plays once per ply)."""

    def __init__(self, every: float = 1.0) -> None:
        self.every = every
        self.pending: dict[str, int] = {}
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def keep(self, game_id: str, ply: int, error: BaseException) -> None:
        with self.lock:
            first = not self.pending
            self.pending[game_id] = max(ply, self.pending.get(game_id, ply))
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
                for game_id, ply in batch.items():
                    enqueue_bot_turn(game_id, ply, expires=BOT_SWEEP_EXPIRES)
                    with self.lock:
                        if self.pending.get(game_id) == ply:
                            del self.pending[game_id]
            except Exception:  # still down (or the eager task failed): try again later
                continue
            log.warning("the Celery broker answers again; CargoBot's tasks were re-sent")


resender = Resender()


def send_or_keep(game_id: str, ply: int) -> None:
    from kombu.exceptions import OperationalError

    try:
        enqueue_bot_turn(game_id, ply)
    except (OperationalError, OSError) as error:  # the broker is down
        resender.keep(game_id, ply, error)
    except Exception:  # the eager task itself failed: the committed turn stands
        log.exception("CargoBot's task for game %s at ply %s failed", game_id, ply)


def enqueue_bot_turn(game_id: str, ply: int, **options: Any) -> None:
    """Send the bot's task for (game, ply); with CELERY_TASK_ALWAYS_EAGER it runs now."""
    from .tasks import bot_turn

    bot_turn.apply_async((game_id, ply), **options)


def play_bot_turn(game_id: str, ply: int, *, quick: bool = False) -> str:
    """The bot's decision at `ply`, through `apply_turn`. Does nothing if the game is gone,
    over, or no longer at `ply` with a bot to move. Returns what happened: "played", or why
    nothing was ("stale_ply", "game_over", "duplicate", ...). `quick` thinks at the kind's
    quick level instead of the seat's (the task's fallback when time runs short)."""
    from .store import get_game, live

    try:
        game = get_game(game_id)
    except GameError:
        return "not_found"
    if not game.bot_seats:
        return "not_a_bot_game"
    if game.is_over:
        return "game_over"
    if game.ply != ply:
        return "stale_ply"
    lg = live(game)
    seat = next((s for s in lg.acting() if s in game.bot_seats), None)
    if seat is None:
        return "not_your_turn"
    seat_level = game.seat_list[seat].bot_level
    assert seat_level is not None
    # Thinking happens outside the transaction: no row lock is held meanwhile.
    level = game.kind.quick_bot_level if quick and game.kind.quick_bot_level else seat_level
    token = game.kind.bot_decision(lg, seat, level, game.bot_seed or 0)
    try:
        result = play.apply_turn(game_id, actor=Actor.bot(seat_level), ply=ply, token=token)
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
        enqueue_bot_turn(game_id, ply, expires=BOT_SWEEP_EXPIRES)
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
    enqueue_bot_turn(game.id, game.ply, expires=BOT_SWEEP_EXPIRES)
    return True

