"""Fault and security tests of the live path. They reuse the live-play fixtures (users
alice, bob, carol; `connect` for sockets) and add a real uvicorn server for what only the
ASGI server sees (frame sizes, invalid UTF-8, a client that closes mid-answer)."""

import logging
import socket
import threading
import time

import pytest
import uvicorn

from tests.games.conftest import (  # noqa: F401  (fixtures)
    close_live_db_threads,
    connect,
    game,
    session_cookie,
    users,
)


class ServedApp:
    """The ASGI app served by uvicorn with the production options (cargosite/serve.py)
    on a free loopback port, in a daemon thread."""

    def __init__(self, app):
        from cargosite import serve

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(app, lifespan="off", **serve.uvicorn_options())
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def served(transactional_db):
    from cargosite.asgi import application

    server = ServedApp(application)
    server.start()
    yield server
    server.stop()


class Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)

    def tracebacks(self):
        return [r for r in self.records if r.exc_info]


@pytest.fixture
def log_records():
    """Every log record of the process during the test (the root logger's handlers may
    not propagate uvicorn's)."""
    from cargosite.logs import OneLine

    handler = Records()
    loggers = [logging.getLogger(), logging.getLogger("uvicorn.error"),
               logging.getLogger("uvicorn")]
    # The process's once-a-minute filters (cargosite/logs.py) start afresh: a line another
    # test logged within the minute must not hide this test's.
    for name in ("uvicorn.error", "channels_redis.pubsub"):
        for found in logging.getLogger(name).filters:
            if isinstance(found, OneLine):
                with found.lock:
                    found.last, found.dropped = float("-inf"), 0
    for logger in loggers:
        logger.addHandler(handler)
    yield handler
    for logger in loggers:
        logger.removeHandler(handler)
