"""`Memo`: the bounded cache behind the engine's and the bots' remembered pure functions.

Each one maps immutable arguments (a board, a yard and contracts, a token's text) to what
a pure function of them returns, so a hit is always right; the bound only limits memory in
a long-lived process (the site's worker plays many games): a full memo starts over.
"""

from __future__ import annotations

from typing import Generic, TypeVar

Key = TypeVar("Key")
Value = TypeVar("Value")


class Memo(dict[Key, Value], Generic[Key, Value]):
    """A dict of at most `limit` entries, emptied when a new entry would pass it."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: Key, value: Value) -> Value:
        """Remember `value` for `key` (starting over if full); returns `value`."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
