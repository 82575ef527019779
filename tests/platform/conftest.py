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
from tests.platform.pile_kind import LobbyPile, Pile


def registered(kind):
    """A fixture's body: `kind` registered for one test, then unregistered."""
    kinds.register(kind)
    yield kind
    kinds.unregister(kind.key)


@pytest.fixture
def pile_kind():
    yield from registered(Pile())


@pytest.fixture
def lobby_pile():
    """The three-seat Pile offered in the lobby (tests/platform/pile_kind.py)."""
    yield from registered(LobbyPile())
