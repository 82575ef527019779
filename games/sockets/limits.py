"""How much work one socket, and one client address, may ask of this process.

A frame is charged by its cost, not counted: most frames cost 1, a `sync` costs 1 plus one
for every 2 KiB it sends back. `Budget` keeps a fixed one-second window with carried debt: a
window may spend `per_second` units; a frame that costs more is still answered (the cost is
known only after the answer), and what it overspent is paid off in the windows after, which
refuse frames until then. Each socket has its own budget and shares its client address's
(`address_budget`), so many sockets from one address cannot add up to more than the address
may spend. `SocketCount` caps the anonymous spectator sockets per address and per game.

All of this is per process (one uvicorn process); docs/production.md says what that means
with several.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from django.conf import settings

MAX_FRAME_BYTES = 4096  # the protocol's frame limit; also uvicorn's ws_max_size
SYNC_BYTES_PER_UNIT = 2048
MAX_TRACKED_ADDRESSES = 10_000


def clock() -> float:
    """Seconds, for the budgets' windows (tests may stop it)."""
    return time.monotonic()


def sync_cost(bytes_sent: int) -> int:
    """What a `sync` answer of `bytes_sent` bytes costs, beyond the frame's own 1."""
    return bytes_sent // SYNC_BYTES_PER_UNIT


class Budget:
    """`per_second` units a second; spending beyond it is owed and paid off later."""

    def __init__(self, per_second: int) -> None:
        self.per_second = per_second
        self.window_start = clock()
        self.spent = 0  # in this window, including debt carried in
        self.refused = 0  # frames refused in this window
        self.strikes = 0  # consecutive windows with refusals

    def _roll(self) -> None:
        elapsed = clock() - self.window_start
        if elapsed < 1.0:
            return
        windows = int(elapsed)
        if not self.refused or windows > 1:  # a window without refusals: no longer flooding
            self.strikes = 0
        self.spent = max(0, self.spent - self.per_second * windows)
        self.refused = 0
        self.window_start += windows

    def allows(self) -> bool:
        """May one more frame start now? A refusal is counted, and the first one in a
        window is a strike."""
        self._roll()
        if self.spent >= self.per_second:
            self.refused += 1
            if self.refused == 1:
                self.strikes += 1
            return False
        return True

    def charge(self, cost: int) -> None:
        self._roll()
        self.spent += cost


_addresses: OrderedDict[str, Budget] = OrderedDict()
_addresses_lock = threading.Lock()


def address_of(scope: dict[str, Any]) -> str:
    """The client's address as the ASGI server saw it (behind nginx, uvicorn's
    `--proxy-headers` puts the forwarded address here)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def address_budget(address: str) -> Budget:
    """The budget shared by every socket from `address` in this process."""
    with _addresses_lock:
        budget = _addresses.get(address)
        if budget is None:
            budget = Budget(settings.LIVE_ADDRESS_UNITS_PER_SECOND)
            _addresses[address] = budget
            while len(_addresses) > MAX_TRACKED_ADDRESSES:
                _addresses.popitem(last=False)
        else:
            _addresses.move_to_end(address)
        return budget


class SocketCount:
    """Open sockets per key (an address, a game), capped."""

    def __init__(self) -> None:
        self.open: dict[str, int] = {}

    def take(self, key: str, cap: int) -> bool:
        if self.open.get(key, 0) >= cap:
            return False
        self.open[key] = self.open.get(key, 0) + 1
        return True

    def give_back(self, key: str) -> None:
        left = self.open.get(key, 0) - 1
        if left > 0:
            self.open[key] = left
        else:
            self.open.pop(key, None)


anonymous_by_address = SocketCount()
anonymous_by_game = SocketCount()


def reset() -> None:
    """Forget every budget and count (tests)."""
    with _addresses_lock:
        _addresses.clear()
    anonymous_by_address.open.clear()
    anonymous_by_game.open.clear()
