"""The consumers' runtime on the fast path: `FastDispatch` (the consumer's message loop)
and `on_pool` (a service call on a live-db thread).

Fast path (docs/fast-path.md, "games/fast/runtime.py"): replaces
- Channels' `AsyncConsumer.dispatch`, which awaits `aclose_old_connections()` before every
  message (a hop to Channels' one sync thread, "three per turn"): every database call here
  runs through `games.sockets.runtime.db`, which looks after its own connections;
- Channels' `AsyncConsumer.__call__`'s `channels.utils.await_many_dispatch`, which makes a
  new task and an `asyncio.wait` at every message: here one task per source (the client,
  the channel layer) for the socket's life, one lock so messages are handled one at a time;
- Channels' `database_sync_to_async`, which runs `close_old_connections()` around every
  call (with `CONN_HEALTH_CHECKS`, a `SELECT 1` first at each call): a live-db thread
  looks at its connection at most every `LIVE_DB_CHECK_SECONDS`, and at once after a
  failed query (`_kept_connection`).
Relies on channels 4.3.2 (`get_handler_name`, `StopConsumer`, `AsyncConsumer`'s
`__call__` and `dispatch` as it replaces them), Django 5.2.19
(`connection.errors_occurred`, `close_old_connections`) and asgiref 3.13.0
(`sync_to_async(thread_sensitive=False, executor=...)`). Measured: none alone; the
dispatch hop and the kept connection came with #18's changes (10.27 → 3.62 ms of server CPU
a turn at 200 games, 2026-12-01), `_dispatch_from` in 62d2ac3's runs (ASGI 1.79–1.81 →
1.52–1.59 ms a turn, with other changes). Off (`LIVE_FAST_PATH=0`): Channels' own
`dispatch` and `await_many_dispatch`, and `DatabaseSyncToAsync` on the same pool of
threads (Channels' connection handling around every call).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.utils import await_many_dispatch
from django.db import close_old_connections, connection

from games.fast import enabled

LIVE_DB_CHECK_SECONDS = 5.0  # how often a live-db thread looks at its connection's health
_live_thread = threading.local()


def on_pool(func: Callable[..., Any], executor: ThreadPoolExecutor
            ) -> Callable[..., Awaitable[Any]]:
    """`func` as a coroutine function run on `executor`'s threads: keeping its connection
    (`_kept_connection`) on the fast path, else as Channels' `database_sync_to_async` does
    (old connections closed around every call)."""
    if enabled():
        return sync_to_async(_kept_connection(func), thread_sensitive=False, executor=executor)
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=executor)


def _kept_connection(func: Callable[..., Any]) -> Callable[..., Any]:
    """`func` on a live-db thread, which keeps its connection between calls. Channels'
    `database_sync_to_async` runs `close_old_connections()` around every call, and with
    CONN_HEALTH_CHECKS that makes every call's first query a `SELECT 1` first: a round trip
    per turn. Here the connection is looked at (its age, its health) at most every
    LIVE_DB_CHECK_SECONDS, and at once after the database failed a call (PostgreSQL
    restarted: the next call reconnects)."""

    def run(*args: Any, **kwargs: Any) -> Any:
        now = time.monotonic()
        if now - getattr(_live_thread, "checked", -LIVE_DB_CHECK_SECONDS) >= \
                LIVE_DB_CHECK_SECONDS:
            close_old_connections()
            _live_thread.checked = now
        try:
            return func(*args, **kwargs)
        finally:
            if connection.errors_occurred:  # Django's mark of a failed query: look next time
                _live_thread.checked = -LIVE_DB_CHECK_SECONDS

    return run


class FastDispatch(AsyncJsonWebsocketConsumer):
    """A consumer's message loop: `dispatch` and `dispatch_from` on the fast path, or
    Channels' own."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its `aclose_old_connections()` before every message
        (a hop to the one sync thread, per frame and per group message): every database
        call here runs through `games.sockets.runtime.db`, which looks after the connections of
        its threads. With the fast path off, Channels' own."""
        if not enabled():
            await super().dispatch(message)
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def dispatch_from(self, sources: list[Callable[[], Awaitable[Any]]]) -> None:
        """Channels' `await_many_dispatch`, without its new task and `asyncio.wait` at
        every message (a few percent of the event loop under load, docs/live-play.md): one
        task per source for the socket's life, each reading its next message only once the
        last was handled, and one lock so that messages are handled one at a time, as
        there. Ends with the first exception (`StopConsumer` on disconnect), the other
        sources cancelled. With the fast path off, Channels' own."""
        if not enabled():
            await await_many_dispatch(sources, self.dispatch)
            return
        lock = asyncio.Lock()

        async def pump(source: Callable[[], Awaitable[Any]]) -> None:
            while True:
                message = await source()
                async with lock:
                    await self.dispatch(message)

        tasks = [asyncio.ensure_future(pump(source)) for source in sources]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in done:
                task.result()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
