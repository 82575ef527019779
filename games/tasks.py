"""Celery tasks of live play: CargoBot's turns and the sweep that re-sends lost ones.

Both are idempotent and guarded. `bot_turn(game_id, ply)` plays only if the game is still at
`ply` with CargoBot to move (through `games.turns.play.apply_turn`, the one apply path, which
locks the game row: two copies of the task play once). It is sent only after the human's
turn commits (`games.botplay.bots.send_task_on_commit`), acknowledged late (a worker that dies
mid-turn leaves the message to be delivered again), limited in time, and retried a few
times on database connection errors. `sweep_bot_games` runs from Celery beat (CELERY_BEAT_SCHEDULE).
`review_game(game_id)` makes a finished game's review (games.records.review, docs/review.md).
`flag_clock(game_id)` makes a due flag fall (sent by the process's clock watcher when the
flag is due); `flag_clocks` runs from beat and checks every game whose flag is due (both
idempotent: a game ends on time once; games.timing.timeouts, docs/clocks.md).
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

from games.botplay import bot_games, bots
from games.records import review
from games.timing import abandonment, timeouts

log = logging.getLogger(__name__)

BOT_TURN_SOFT_TIME_LIMIT = 20  # seconds; Hard's worst turn on 8×8 takes about 0.5 s
BOT_TURN_TIME_LIMIT = 30
BOT_TURN_MAX_RETRIES = 3


@shared_task(
    name="games.bot_turn",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=BOT_TURN_SOFT_TIME_LIMIT,
    time_limit=BOT_TURN_TIME_LIMIT,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=BOT_TURN_MAX_RETRIES,
    retry_backoff=1,
    retry_backoff_max=30,
    retry_jitter=True,
    ignore_result=True,
)
def bot_turn(game_id: str, ply: int, seat: int | None = None) -> str:
    """A bot's turn in `game_id` at `ply` (with `seat`: that bot seat's decision numbered
    `ply`, games.botplay.bots); does nothing if the game moved on."""
    try:
        outcome = bot_games.play_bot_turn(game_id, ply, seat=seat)
    except SoftTimeLimitExceeded:
        # Out of time (a very slow machine): play the kind's quick level, which takes
        # milliseconds, rather than leave the player waiting for the sweep to try again.
        log.warning("the bot ran out of time in game %s at ply %s; playing its quick level",
                    game_id, ply)
        outcome = bot_games.play_bot_turn(game_id, ply, quick=True, seat=seat)
    if outcome != "played":
        log.info("CargoBot's task for game %s at ply %s did nothing: %s", game_id, ply, outcome)
    return outcome


@shared_task(name="games.sweep_bot_games", acks_late=True, soft_time_limit=50, time_limit=60,
             ignore_result=True)
def sweep_bot_games() -> list[str]:
    """Re-send CargoBot's task for games that have waited on it too long."""
    return bots.sweep_bot_games()


@shared_task(name="games.sweep_idle_games", acks_late=True, soft_time_limit=50,
             time_limit=60, ignore_result=True)
def sweep_idle_games() -> list[str]:
    """Abort the untimed games nobody has moved in for days (games.timing.abandonment)."""
    return abandonment.sweep_idle_games()


@shared_task(name="games.flag_clock", acks_late=True, soft_time_limit=20, time_limit=30,
             autoretry_for=(OperationalError, InterfaceError), max_retries=BOT_TURN_MAX_RETRIES,
             retry_backoff=1, ignore_result=True)
def flag_clock(game_id: str) -> bool:
    """If `game_id`'s running clock has run out, end it on time (nothing otherwise)."""
    return timeouts.flag(game_id) is not None


@shared_task(name="games.flag_clocks", acks_late=True, soft_time_limit=20, time_limit=30,
             ignore_result=True)
def flag_clocks() -> list[str]:
    """End on time every active game whose flag is due (the watcher's backstop)."""
    return timeouts.flag_due_games()


REVIEW_SOFT_TIME_LIMIT = 240  # seconds; a 64-turn 8×8 review takes about 25 s of CPU
REVIEW_TIME_LIMIT = 300


@shared_task(
    name="games.review_game",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=REVIEW_SOFT_TIME_LIMIT,
    time_limit=REVIEW_TIME_LIMIT,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=BOT_TURN_MAX_RETRIES,
    retry_backoff=1,
    ignore_result=True,
)
def review_game(game_id: str) -> str:
    """CargoBot's review of a finished game (games.records.review.run_review): one run at a time
    per game, nothing done if the review is already done or another run is busy."""
    try:
        return review.run_review(game_id)
    except SoftTimeLimitExceeded:
        log.error("the review of game %s ran out of time", game_id)
        review.mark_failed(game_id, "the review ran out of time")
        return "failed"
