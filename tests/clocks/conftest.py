"""Clock tests: the live-play users and sockets, a watcher that starts empty, the
test-only Picks kind (several seats deciding at once) and frozen time."""

import pytest

from games import kinds
from games.timing import timeouts
from tests.clocks.support import frozen_time
from tests.games.conftest import close_live_db_threads, connect, session_cookie, users
from tests.platform.clock_kind import Picks

__all__ = ["close_live_db_threads", "connect", "session_cookie", "users"]


@pytest.fixture(autouse=True)
def empty_watcher():
    """This process's flag watcher forgets the games of other tests."""
    timeouts.watcher.clear()
    yield
    timeouts.watcher.clear()


@pytest.fixture
def picks_kind():
    """The test-only Picks kind (tests/platform/clock_kind.py): 2–4 seats decide at once."""
    kind = kinds.register(Picks())
    yield kind
    kinds.unregister(kind.key)


@pytest.fixture
def frozen():
    """Time stands still: every `timezone.now()` answers `frozen.now`, which only
    `frozen.advance(seconds)` moves, so each charge can be asserted to the millisecond;
    the flag watcher is told of nothing meanwhile (support.frozen_time says why)."""
    with frozen_time() as clock:
        yield clock
