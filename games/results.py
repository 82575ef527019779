"""What follows a game's end: the handlers other apps register, and what they are told.

Every way a game ends goes through `games.turns.finish` (finished by the rules, resigned, resigned
at the end of the Daily Challenge's day, timed out, voided), which records the result and
then calls these handlers with an `Ending`:

1. `Stage.IN_TRANSACTION` handlers, in rising `order`, inside the transaction that records
   the result: whatever must agree with it (ratings, Daily Challenge boards). If one raises,
   nothing is recorded.
2. `Stage.AFTER_COMMIT` handlers, in rising `order`, once that transaction has committed
   (a tournament's pages and pairing, notifications, the API's account events): one
   failing is logged and does not stop the others. They run before the ending's own
   frames leave the process, so a player waits for them.
3. `Stage.AFTER_FRAMES` handlers, in rising `order`, once the ending's frames are sent
   (in a socket's call, a call of their own that follows it; elsewhere right after the
   `AFTER_COMMIT` ones): the work no player waits on (stats, streaks, achievements), so
   that the end reaches the players first and the live-db thread that applied the last
   turn is free for the next one. Failures are logged as for `AFTER_COMMIT`.

Apps register from their `AppConfig.ready()`. This module imports nothing of live play, so
`rankings` and `puzzles` may depend on it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum

from games.models import Game

log = logging.getLogger(__name__)


class Stage(IntEnum):
    IN_TRANSACTION = 1
    AFTER_COMMIT = 2
    AFTER_FRAMES = 3


@dataclass(frozen=True)
class Ending:
    """A game that just ended (`voided` False) or was voided (True): its row, with seats
    holding score, place and outcome (all None for a voided game)."""

    game: Game
    voided: bool = False


Handler = Callable[[Ending], None]


@dataclass(frozen=True)
class Registration:
    name: str
    stage: Stage
    order: int
    handler: Handler


_HANDLERS: dict[str, Registration] = {}


def on_game_end(name: str, stage: Stage, order: int) -> Callable[[Handler], Handler]:
    """Decorator: call `handler(ending)` at `stage`, in `order`, whenever a game ends or is
    voided. Registering a name again replaces the earlier handler."""

    def register(handler: Handler) -> Handler:
        _HANDLERS[name] = Registration(name, stage, order, handler)
        return handler

    return register


def unregister(name: str) -> None:
    _HANDLERS.pop(name, None)


def handlers(stage: Stage) -> list[Registration]:
    return sorted((r for r in _HANDLERS.values() if r.stage == stage),
                  key=lambda r: (r.order, r.name))


def run_in_transaction(ending: Ending) -> None:
    for registration in handlers(Stage.IN_TRANSACTION):
        registration.handler(ending)


def run_after_commit(ending: Ending) -> None:
    _run_logged(Stage.AFTER_COMMIT, ending)


def run_after_frames(ending: Ending) -> None:
    _run_logged(Stage.AFTER_FRAMES, ending)


def _run_logged(stage: Stage, ending: Ending) -> None:
    for registration in handlers(stage):
        try:
            registration.handler(ending)
        except Exception:  # one app's failure must not stop the others
            log.exception("game-end handler %s failed for game %s", registration.name,
                          ending.game.id)
