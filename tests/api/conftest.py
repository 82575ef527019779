import pytest

from tests.api.support import fresh_limits, member
from tests.games.conftest import (  # noqa: F401  (fixtures: sockets beside streams)
    close_live_db_threads,
    connect,
    session_cookie,
)


@pytest.fixture(autouse=True)
def api_limits_fresh():
    """Each test starts with the test client's address unspent (the cache outlives a test
    with Redis)."""
    fresh_limits()
    yield


@pytest.fixture
def people(db):
    return {name: member(name) for name in ("marta", "kofi", "ines", "omar")}
