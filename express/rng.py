"""The seeded generator of rules.md 13: SplitMix64 and a Fisher–Yates shuffle."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1


class SplitMix64:
    """SplitMix64, exactly as rules.md 13 writes it (all arithmetic mod 2^64)."""

    __slots__ = ("x",)

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= MASK64:
            raise ValueError("the seed is an unsigned 64-bit number")
        self.x = seed

    def next(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) & MASK64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def shuffle(self, items: list[T]) -> list[T]:
        """Fisher–Yates in place (i from len−1 down to 1, j = next() mod (i+1)); returns items."""
        for i in range(len(items) - 1, 0, -1):
            j = self.next() % (i + 1)
            items[i], items[j] = items[j], items[i]
        return items
