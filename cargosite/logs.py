"""Log filters for faults a client or Redis can cause many times a second, so that each is
one line, not a traceback per frame or per second (docs/production.md, "Faults").

- uvicorn logs a traceback for every text frame that is not UTF-8 (the connection is
  closed with 1007 anyway): kept as one warning line without the traceback, at most one a
  minute (a client could send thousands), each frame counted in /metrics
  (`cargo_invalid_utf8_frames_total`, games/frames/metrics.py; issue #42, point 6).
- channels_redis logs a traceback for every socket that closes while Redis is down
  ("cleaning-up channel"): the first is kept as one line, the rest are dropped until a
  minute has passed. Its pub/sub reader's message ("receive task") is filtered the same
  way, though the site's layer replaces that reader: `cargosite.channel_layer._Shard`
  logs its own outage as one line, then one a minute (issue #28, point 5).

- Django logs a traceback for every request that meets a database that does not answer
  (answered 503 by cargosite/unavailable.py): each becomes one line, at most one every 10 s.
- Django logs a traceback with every 403 of a PermissionDenied (a staff member on an admin
  page they may not see): kept as its one line.

`install()` is called by cargosite/asgi.py, in the ASGI server's process.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

INVALID_UTF8 = "Invalid UTF-8 sequence received from client."
PUBSUB_RECEIVE = "Unexpected exception in receive task"
PUBSUB_CLEANUP = "Unexpected exception while cleaning-up channel"


class OneLine(logging.Filter):
    """Records whose message starts with `prefix` lose their traceback and become warnings;
    with `every` seconds set, only one such record passes in that time. `count`, if given,
    is called for every such record, passed or dropped."""

    def __init__(self, prefix: str, every: float = 0.0,
                 count: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.prefix = prefix
        self.every = every
        self.count = count
        self.last = float("-inf")
        self.dropped = 0
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(self.prefix):
            return True
        if self.count is not None:
            self.count()
        with self.lock:
            now = time.monotonic()
            if self.every and now - self.last < self.every:
                self.dropped += 1
                return False
            self.last = now
            dropped, self.dropped = self.dropped, 0
        error = record.exc_info[1] if record.exc_info else None
        detail = f": {type(error).__name__}: {error}" if error is not None else ""
        if dropped:
            detail += f" ({dropped} more since the last)"
        record.msg = f"{self.prefix}{detail}"
        record.args = None
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class RefusalWithoutTraceback(logging.Filter):
    """Django logs every PermissionDenied (a 403, e.g. a staff member on an admin page they
    may not see) with its traceback: a refusal is the site working, not failing. Kept as
    the one warning line, without the traceback (issue #28)."""

    def filter(self, record: logging.LogRecord) -> bool:
        from django.core.exceptions import PermissionDenied

        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, PermissionDenied):
            record.exc_info = None
            record.exc_text = None
        return True


class DatabaseDown(logging.Filter):
    """Request errors caused by a database that does not answer: one line, without the
    traceback, at most one every `every` seconds."""

    def __init__(self, every: float = 10.0) -> None:
        super().__init__()
        self.every = every
        self.last = float("-inf")
        self.dropped = 0
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        from games.frames.protocol import DATABASE_DOWN, database_down_line

        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, DATABASE_DOWN):
            return True
        with self.lock:
            now = time.monotonic()
            if now - self.last < self.every:
                self.dropped += 1
                return False
            self.last = now
            dropped, self.dropped = self.dropped, 0
        message = record.getMessage()
        record.msg = "%s (%s)%s"
        record.args = (message, database_down_line(error),
                       f" ({dropped} more since the last)" if dropped else "")
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


_installed = False


def install() -> None:
    global _installed
    if _installed:
        return
    _installed = True
    from games.frames.metrics import invalid_utf8_frame

    logging.getLogger("uvicorn.error").addFilter(OneLine(INVALID_UTF8, every=60.0,
                                                        count=invalid_utf8_frame))
    pubsub = logging.getLogger("channels_redis.pubsub")
    pubsub.addFilter(OneLine(PUBSUB_RECEIVE, every=60.0))
    pubsub.addFilter(OneLine(PUBSUB_CLEANUP, every=60.0))
    logging.getLogger("django.request").addFilter(DatabaseDown())
    logging.getLogger("django.request").addFilter(RefusalWithoutTraceback())
