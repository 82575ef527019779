"""The live-play tests' people and sockets (tests/games/conftest.py): alice plays Blue,
bob Orange, carol watches; `connect` opens a game socket with a real session cookie."""

from tests.games.conftest import (  # noqa: F401  (fixtures)
    close_live_db_threads,
    connect,
    game,
    session_cookie,
    users,
)
