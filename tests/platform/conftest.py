"""The platform tests share the live-play fixtures (users, sockets) and register the
test-only Pile kind (pile_kind.py) for the tests that ask for it."""

import pytest

from games import kinds
from games.timing import timeouts
from tests.clocks.support import frozen_time
from tests.games.conftest import (  # noqa: F401  (fixtures)
    close_live_db_threads,
    connect,
    game,
    session_cookie,
    users,
)
from tests.platform.pile_kind import LobbyPile, Pile


@pytest.fixture
def no_budgets(settings, monkeypatch):
    """Every test socket shares one address, and games here are played at machine speed:
    the frame budgets (games.sockets.limits) are lifted."""
    settings.LIVE_ADDRESS_UNITS_PER_SECOND = 10 ** 6
    monkeypatch.setattr("games.sockets.runtime.FRAMES_PER_SECOND", 10 ** 6)


@pytest.fixture
def empty_watcher():
    """This process's flag watcher forgets the games of other tests."""
    timeouts.watcher.clear()
    yield
    timeouts.watcher.clear()


@pytest.fixture
def frozen():
    """`timezone.now` stopped at a whole second; the test moves it (`advance`)."""
    with frozen_time() as clock:
        yield clock


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
