"""PostgreSQL from the event loop: a few asynchronous connections per loop, for the one
statement a live turn writes (games.play.apply_turn_on_loop).

A socket's service calls run on worker threads (games/consumers.py `db`), and under load
the hop to a thread and back, with the GIL passed between the loop and the threads, cost
more CPU than the turn's own work (docs/live-play.md). The common turn needs one statement
and nothing of Django's ORM, so it is sent from the loop on a psycopg `AsyncConnection`.

Per event loop (a connection cannot serve two loops): at most LIVE_LOOP_CONNECTIONS
connections, opened when first needed with the default database's parameters (so tests
reach their test database), in autocommit, preparing the statements that ask. A connection
that fails or is interrupted is closed and dropped, never reused; the caller then takes the
threaded path, which words what went wrong (a database that does not answer) as always.
Connections of loops that have closed (each test has its own) are closed when next looked
at, and `close_all` closes every one (the end of a test session, before the test database
is dropped).
"""

from __future__ import annotations

import asyncio
import functools
import threading
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections


class LoopConnections:
    """One loop's idle connections, and a semaphore for how many may be in use."""

    def __init__(self, loop: asyncio.AbstractEventLoop, size: int) -> None:
        self.loop = loop
        self.slots = asyncio.Semaphore(size)
        self.idle: list[psycopg.AsyncConnection[Any]] = []

    async def execute(self, sql: str, params: list[Any]) -> int:
        """Run `sql` prepared; the rows it changed. Raises what psycopg raised (the
        connection is then closed), or `asyncio.CancelledError`."""
        async with self.slots:
            conn = self.idle.pop() if self.idle else await _connect()
            try:
                async with psycopg.AsyncCursor(conn) as cursor:
                    await cursor.execute(sql, params, prepare=True)
                    rows = cursor.rowcount
            except BaseException:
                _close(conn)
                raise
            self.idle.append(conn)
            return rows

    def close(self) -> None:
        idle, self.idle = self.idle, []
        for conn in idle:
            _close(conn)


_pools: dict[int, LoopConnections] = {}
_lock = threading.Lock()


def enabled() -> bool:
    """Are turns written from the loop? (PostgreSQL, and LIVE_LOOP_CONNECTIONS > 0.)"""
    return settings.LIVE_LOOP_CONNECTIONS > 0 and _on_postgresql()


@functools.cache
def _on_postgresql() -> bool:
    return connections["default"].vendor == "postgresql"


async def execute(sql: str, params: list[Any]) -> int:
    """Run `sql` on a connection of the running loop (see `LoopConnections.execute`)."""
    return await _pool().execute(sql, params)


def _pool() -> LoopConnections:
    loop = asyncio.get_running_loop()
    with _lock:
        pool = _pools.get(id(loop))
        if pool is None or pool.loop is not loop:
            for key, other in list(_pools.items()):
                if other.loop.is_closed() or key == id(loop):
                    other.close()
                    del _pools[key]
            pool = _pools[id(loop)] = LoopConnections(loop, settings.LIVE_LOOP_CONNECTIONS)
        return pool


async def _connect() -> psycopg.AsyncConnection[Any]:
    """A connection as Django would open it (its parameters, its adapters, its
    `prepare_threshold`: cargosite/settings.py), in autocommit, without Django's
    client-binding cursors."""
    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    return await psycopg.AsyncConnection.connect(autocommit=True, **params)


def _close(conn: psycopg.AsyncConnection[Any]) -> None:
    """Close without awaiting (also from a cancelled task, or a loop that has closed)."""
    try:
        conn.pgconn.finish()
    except Exception:  # pragma: no cover - already closed
        pass


def close_all() -> None:
    """Close every loop's idle connections (connections in use are closed by their call
    when it ends)."""
    with _lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.close()
