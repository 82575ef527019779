"""The platform tests share the live-play fixtures (users, sockets) and register the
test-only Pile kind (pile_kind.py) for the tests that ask for it."""

import pytest

from games import kinds
from tests.games.conftest import (  # noqa: F401  (fixtures)
    close_live_db_threads,
    connect,
    game,
    session_cookie,
    users,
)
from tests.platform.pile_kind import Pile


@pytest.fixture
def pile_kind():
    kind = kinds.register(Pile())
    yield kind
    kinds.unregister(kind.key)
