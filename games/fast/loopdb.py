"""PostgreSQL from the event loop: a few asynchronous connections per loop, for the one
statement a live turn writes (games.fast.turns.apply_turn_on_loop).

A socket's service calls run on worker threads (games/sockets/runtime.py `db`), and under load
the hop to a thread and back, with the GIL passed between the loop and the threads, cost
more CPU than the turn's own work (docs/live-play.md). The common turn needs one statement
and nothing of Django's ORM, so it is sent from the loop on a psycopg `AsyncConnection`.

The statement goes through psycopg's `pq` layer (libpq) directly: prepared once per
connection, its parameters sent as text, its one result awaited through the reader the
connection keeps on the loop. psycopg's cursor adapted each value, kept a
prepared-statement cache and waited through its generators, which cost the loop more than
the statement's round trip (docs/live-play.md). Every parameter has a type the statement's
text gives it (a column it is assigned or compared to, or a cast), so none is sent with a
type.

Per event loop (a connection cannot serve two loops): at most LIVE_LOOP_CONNECTIONS
connections, opened when first needed with the default database's parameters (so tests
reach their test database), in autocommit. A connection that fails or is interrupted
(also while it waits idle: its reader finds out) is closed and dropped, never reused; the
caller then takes the threaded path, which words what went wrong (a database that does
not answer) as always.
Connections of loops that have closed (each test has its own) are closed when next looked
at, and `close_all` closes every one (the end of a test session, before the test database
is dropped).

Fast path (docs/fast-path.md, "games/fast/loopdb.py"): replaces the hop to a live-db thread
(asgiref's `sync_to_async`) and Django's connection for the common turn's write, and
psycopg's cursor. Relies on psycopg 3.3.9's `AsyncConnection.pgconn` and `psycopg.pq`
(`send_prepare`, `send_query_prepared`, `consume_input`, `is_busy`, `get_result`, `flush`,
`nonblocking`, `socket`), `errors.error_from_result`, and Django 5.2.19's
`get_connection_params()`. Measured (`ROUTE=game scripts/load_run.sh 400 60`), not alone:
3.24–3.46 → 1.89–2.26 ms of server CPU a turn with the real prepare and others
(2026-12-02 01:51–02:25 UTC); through libpq instead of psycopg's cursor 2.02 / 2.07 → 1.94
/ 1.87 ms a turn. Off with `LIVE_FAST_PATH=0`, or alone with `LIVE_LOOP_CONNECTIONS=0`.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import re
import threading
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections
from psycopg import pq

from games.fast import enabled as fast_path_on


class LoopConnection(psycopg.AsyncConnection[Any]):
    """A loop's connection: the names of the statements prepared on it, and its socket's
    reader on the loop, registered once (adding and removing a reader at every statement
    cost the loop a few percent): it reads what arrives and wakes `waiter`, the statement
    waiting for its answer, once libpq holds all of it."""

    prepared: set[bytes]
    waiter: asyncio.Future[None] | None
    watched: tuple[asyncio.AbstractEventLoop, int] | None  # the loop and fd read
    failure: Exception | None  # what reading met (the server closed, say)


@dataclass(frozen=True)
class Statement:
    """A statement's text for libpq (`$1`… for psycopg's `%s`) and its prepared name."""

    name: bytes
    text: bytes


class LoopConnections:
    """One loop's idle connections, and a semaphore for how many may be in use."""

    def __init__(self, loop: asyncio.AbstractEventLoop, size: int) -> None:
        self.loop = loop
        self.slots = asyncio.Semaphore(size)
        self.idle: list[LoopConnection] = []

    async def execute(self, sql: str, params: list[Any]) -> int:
        """Run `sql` prepared; the rows it changed (or returned). Raises what psycopg
        raised (the connection is then closed), or `asyncio.CancelledError`."""
        statement = _statement(sql)
        values = [_text(value) for value in params]
        async with self.slots:
            conn = await self._connection()
            try:
                rows = await _execute(conn, statement, values)
            except BaseException:
                _close(conn)
                raise
            self.idle.append(conn)
            return rows

    async def _connection(self) -> LoopConnection:
        """An idle connection that nothing has broken while it waited, or a new one."""
        while self.idle:
            conn = self.idle.pop()
            if conn.failure is None:
                return conn
            _close(conn)
        return await _connect()

    def close(self) -> None:
        idle, self.idle = self.idle, []
        for conn in idle:
            _close(conn)


_names = itertools.count(1)


@functools.cache
def _statement(sql: str) -> Statement:
    """psycopg's positional placeholders numbered for libpq (`%%` is a literal `%`)."""
    assert "%(" not in sql, "named placeholders are psycopg's alone"
    numbers = itertools.count(1)
    text = _PLACEHOLDER.sub(lambda m: "%" if m[0] == "%%" else f"${next(numbers)}", sql)
    return Statement(f"cargo_loop_{next(_names)}".encode(), text.encode())


_PLACEHOLDER = re.compile("%%|%s")


def _text(value: Any) -> bytes | None:
    """A parameter in PostgreSQL's text format (what the write's values are: text, whole
    numbers, truth values, times and JSON already as text)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, bool):
        return b"t" if value else b"f"
    if isinstance(value, int):
        return str(value).encode()
    if isinstance(value, (datetime, date)):
        return value.isoformat().encode()
    raise TypeError(f"no text form for a {type(value).__name__} parameter")


async def _execute(conn: LoopConnection, statement: Statement,
                   values: list[bytes | None]) -> int:
    pgconn = conn.pgconn
    if statement.name not in conn.prepared:
        pgconn.send_prepare(statement.name, statement.text)
        await _result(conn)
        conn.prepared.add(statement.name)
    pgconn.send_query_prepared(statement.name, values)
    result = await _result(conn)
    return int(result.command_tuples or 0)


async def _result(conn: LoopConnection) -> pq.abc.PGresult:
    """The one result of what was just sent, once every byte is sent and the server has
    said it is ready again; raises the error PostgreSQL answered with as psycopg's
    exception."""
    pgconn, loop = conn.pgconn, asyncio.get_running_loop()
    while pgconn.flush():  # rare: the socket's buffer was full
        await _writable(loop, pgconn.socket)
    results = []
    while True:
        if conn.failure is not None:
            raise conn.failure
        if pgconn.is_busy():
            conn.waiter = loop.create_future()
            try:
                await conn.waiter
            finally:
                conn.waiter = None
        result = pgconn.get_result()
        if result is None:
            break
        results.append(result)
    if len(results) != 1:
        raise psycopg.OperationalError(f"the server sent {len(results)} results, not one")
    result = results[0]
    if result.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
        raise psycopg.errors.error_from_result(result, encoding=conn.info.encoding)
    return result


def _watch(conn: LoopConnection, loop: asyncio.AbstractEventLoop) -> None:
    conn.waiter, conn.failure = None, None
    fd = conn.pgconn.socket
    loop.add_reader(fd, _on_readable, conn)
    conn.watched = (loop, fd)


def _unwatch(conn: LoopConnection) -> None:
    watched, conn.watched = conn.watched, None
    if watched is not None:
        loop, fd = watched
        try:
            loop.remove_reader(fd)
        except Exception:  # the loop has closed (its readers went with it)
            pass


def _on_readable(conn: LoopConnection) -> None:
    """The socket has something: libpq reads it. What fails (the server closed the
    connection) breaks the connection for good, and stops the reading."""
    pgconn, waiter = conn.pgconn, conn.waiter
    try:
        pgconn.consume_input()
    except Exception as error:  # psycopg.OperationalError
        conn.failure = error
        _unwatch(conn)
        if waiter is not None and not waiter.done():
            waiter.set_exception(error)
        return
    if waiter is not None and not waiter.done() and not pgconn.is_busy():
        waiter.set_result(None)


async def _writable(loop: asyncio.AbstractEventLoop, fd: int) -> None:
    """Wait until the socket takes more bytes."""
    done = loop.create_future()

    def on_writable() -> None:
        if not done.done():
            done.set_result(None)

    loop.add_writer(fd, on_writable)
    try:
        await done
    finally:
        loop.remove_writer(fd)


_pools: dict[int, LoopConnections] = {}
_lock = threading.Lock()


def enabled() -> bool:
    """Are turns written from the loop? (The fast path on, PostgreSQL, and
    LIVE_LOOP_CONNECTIONS > 0.)"""
    return fast_path_on() and settings.LIVE_LOOP_CONNECTIONS > 0 and on_postgresql()


@functools.cache
def on_postgresql() -> bool:
    """Is the default database PostgreSQL? (Asked once: one database per process.)"""
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


async def _connect() -> LoopConnection:
    """A connection as Django would open it (its parameters), in autocommit, its libpq
    connection non-blocking."""
    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    conn = await LoopConnection.connect(autocommit=True, **params)
    conn.pgconn.nonblocking = 1
    conn.prepared = set()
    _watch(conn, asyncio.get_running_loop())
    return conn


def _close(conn: LoopConnection) -> None:
    """Close without awaiting (also from a cancelled task, or a loop that has closed):
    its reader first, while its socket is still open."""
    _unwatch(conn)
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
