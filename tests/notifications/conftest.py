"""Notification tests: the live-play users and sockets, frozen time, and helpers."""

from tests.clocks.conftest import frozen
from tests.games.conftest import close_live_db_threads, connect, session_cookie, users

__all__ = ["close_live_db_threads", "connect", "frozen", "session_cookie", "users"]
