"""The test run's SQLite backend: Django's, waiting out another connection's table lock as
a database file waits out a busy one.

On SQLite the test database is in memory, shared by the test's connections through
SQLite's shared cache (Django's `file:memorydb_…?mode=memory&cache=shared`). There a
statement that meets a table another connection is writing fails at once, "database
table is locked" (SQLITE_LOCKED): the busy timeout, which makes a database file's
connections wait up to 5 s (Django's default, as `make run` serves), does not apply. The
browser and socket tests run a live server beside the test's own thread, and a read of
the server's that met the test's write failed a test now and then (a socket closed with
"the database is not answering": tests/browser/test_express_seats_browser.py, session 33;
the review page's test, session 32). So a statement, or a commit, that meets a lock is
tried again for up to `WAIT_S`, as a file's busy timeout would, and fails as before after
that. A statement refused with SQLITE_LOCKED did nothing, so trying it again is safe."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteDatabaseWrapper
from django.db.backends.sqlite3.base import SQLiteCursorWrapper
from django.db.backends.utils import debug_transaction

WAIT_S = 5.0
LOCKED = ("database table is locked", "database schema is locked", "database is locked")

T = TypeVar("T")


def waiting_out_locks(call: Callable[[], T]) -> T:
    """`call()`, tried again while SQLite says another connection holds the lock."""
    deadline, pause = time.monotonic() + WAIT_S, 0.002
    while True:
        try:
            return call()
        except sqlite3.OperationalError as error:
            if not str(error).startswith(LOCKED) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


class WaitingCursor(SQLiteCursorWrapper):
    def execute(self, query: str, params: Any = None) -> Any:
        return waiting_out_locks(lambda: SQLiteCursorWrapper.execute(self, query, params))

    def executemany(self, query: str, param_list: Any) -> Any:
        param_list = list(param_list)  # a generator could be read only once
        return waiting_out_locks(
            lambda: SQLiteCursorWrapper.executemany(self, query, param_list))


class DatabaseWrapper(SQLiteDatabaseWrapper):
    def create_cursor(self, name: str | None = None) -> Any:
        return self.connection.cursor(factory=WaitingCursor)

    def _commit(self) -> None:
        if self.connection is not None:
            with debug_transaction(self, "COMMIT"), self.wrap_database_errors:
                waiting_out_locks(self.connection.commit)
