"""Warm games: each process keeps the games it plays loaded, so a turn reads nothing.

An entry is a game row as `games.turns.store` loads it (its seats, their members and ratings,
which change only when a game ends; not the players' presence, `Seat.sockets` and
`left_at`, which change whenever a page opens or closes: games.timing.abandonment reads those
afresh) with the kind's in-memory game at the row's
`revision`. A turn applies to the entry's copy and writes on condition that the stored
revision is still the entry's (`games.fast.statements.write_turn`); if anything changed the game
since (another process, a resign, the Daily Challenge's checks, the admin), the write
changes nothing, the entry is dropped and the turn takes the locked path, which loads the
game afresh and warms it again after its commit. A turn written by another process reaches
this one's sockets as a group frame with the row's new revision and the turn: a copy just
behind it is brought up to it, when the turn alone decides the row, or else dropped
(games.fast.turns.follow).

Per process, bounded (the least recently used entry goes), and each entry has a lock so
two threads of one process never apply turns to one copy at once.

Fast path (docs/fast-path.md, "games/fast/warm.py"): replaces loading the game through Django's
ORM for every turn (`store.lock_game`'s transaction and row lock: six round trips). Relies
on no library's internals; on `Game.revision`, which every `save` bumps. Measured with the
rest of #18, not alone: 10.27 → 3.62 ms of server CPU a turn at 200 games (2026-12-01).
Off (`LIVE_FAST_PATH=0`, or `LIVE_WARM_GAMES=0`), nothing is kept and every turn takes
the locked path.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from django.conf import settings

from games.fast import enabled
from games.kinds import LiveGame
from games.models import Game


@dataclass
class Warm:
    game: Game
    lg: LiveGame
    lock: threading.Lock = field(default_factory=threading.Lock)


_entries: OrderedDict[str, Warm] = OrderedDict()
_lock = threading.Lock()


def get(game_id: str) -> Warm | None:
    """The warm entry of a game, if this process has one (it becomes the most recent)."""
    if not enabled():
        return None
    with _lock:
        entry = _entries.get(game_id)
        if entry is not None:
            _entries.move_to_end(game_id)
        return entry


def keep(game: Game, lg: LiveGame) -> None:
    """Warm `game` (as just committed, with its seats loaded) with its kind's game `lg`.
    Finished games are not kept: nothing more is played in them."""
    if game.is_over or not enabled():
        forget(game.id)
        return
    with _lock:
        kept = _entries.get(game.id)
        if kept is not None and kept.game.revision > game.revision:
            return  # a later decision warmed it meanwhile (the locked path's, on its commit)
        _entries[game.id] = Warm(game, lg)
        _entries.move_to_end(game.id)
        while len(_entries) > settings.LIVE_WARM_GAMES:
            _entries.popitem(last=False)


def keep_if_cold(game: Game, lg: LiveGame) -> None:
    """Warm a game a player opens, unless this process has it already (a copy read without
    the lock may be older than the entry a turn just kept)."""
    with _lock:
        if game.id in _entries:
            return
    keep(game, lg)


def take_older(game_id: str, revision: int) -> Warm | None:
    """A process's socket heard that the game is now at `revision` (a turn's group frame):
    a copy older than that can no longer write, so it is dropped now rather than after a
    refused write, and returned (games.fast.turns.follow may bring it up to date and keep it
    again)."""
    with _lock:
        entry = _entries.get(game_id)
        if entry is None or entry.game.revision >= revision:
            return None
        del _entries[game_id]
        return entry


def forget(game_id: str) -> None:
    with _lock:
        _entries.pop(game_id, None)


def clear() -> None:
    """Drop every entry (tests that change rows behind the site's back)."""
    with _lock:
        _entries.clear()
