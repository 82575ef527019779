"""Decisions on one game from one event loop, one after another.

The loop's turn (games.fast.turns.apply_turn_on_loop) takes the game's warm copy out while
its write and its frames are in flight, so that no other decision changes the copy
underneath. A second decision on the same game arriving meanwhile used to find no copy and
fall to the locked path on a thread (load the game, row lock, resume the engine): in Cargo
Express's planning every seat commits within the same few milliseconds, so three of four
plans took that path and waited on each other's row lock (measured 2026-12-03, 13:34 UTC,
`GAME=cargo-express scripts/load_run.sh 100 40`: plans acknowledged at p50 340 ms and p95
883 ms, 388 of 4,381 decisions off the loop). Here a decision waits for the one before it
on the same game and this loop, then finds the copy warm again.

Fast path (docs/fast-path.md, "games/fast/queue.py"): part of the loop's turn and off with it
(`LIVE_FAST_PATH=0`: the loop decides nothing, nothing waits here). Relies on no library's
internals: an `asyncio.Lock` per game and loop, dropped when nobody holds or awaits it.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator

# Per event loop (tests run several loops; an asyncio.Lock belongs to one), per game.
_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Turn]] = \
    weakref.WeakKeyDictionary()


class _Turn:
    """A game's lock on one loop and how many decisions hold or await it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


@contextlib.asynccontextmanager
async def turn_of(game_id: str) -> AsyncIterator[None]:
    """Hold the game's turn on the running loop: decisions on one game from this loop run
    one at a time, in the order they arrived (asyncio.Lock is fair)."""
    games = _locks.setdefault(asyncio.get_running_loop(), {})
    turn = games.get(game_id)
    if turn is None:
        turn = games[game_id] = _Turn()
    turn.users += 1
    try:
        async with turn.lock:
            yield
    finally:
        turn.users -= 1
        if turn.users == 0:
            del games[game_id]


def waiting(game_id: str) -> int:
    """Decisions holding or awaiting the game's turn on the running loop (tests)."""
    turn = _locks.get(asyncio.get_running_loop(), {}).get(game_id)
    return 0 if turn is None else turn.users
