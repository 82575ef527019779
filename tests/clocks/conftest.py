"""Clock tests: the live-play users and sockets, and a watcher that starts empty."""

import pytest

from games import timeouts
from tests.games.conftest import close_live_db_threads, connect, session_cookie, users

__all__ = ["close_live_db_threads", "connect", "session_cookie", "users"]


@pytest.fixture(autouse=True)
def empty_watcher():
    """This process's flag watcher forgets the games of other tests."""
    timeouts.watcher.clear()
    yield
    timeouts.watcher.clear()
