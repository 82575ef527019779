"""The engine's one exception type for bad input."""

from __future__ import annotations


class ExpressError(ValueError):
    """Bad input: a malformed position, record or token, an illegal decision, bad arguments.

    ``at`` is the 0-based index of the offending decision token in a record (picks, PLANS
    entries, turns, swaps and ``resignK`` counted; notation.md fine point 5), or ``None``
    when the fault is in a header, a position, an argument or the input's encoding.
    """

    def __init__(self, message: str, at: int | None = None) -> None:
        super().__init__(message)
        self.at = at

    def with_at(self, at: int | None) -> ExpressError:
        """The same error, placed at a decision index (used by record replay)."""
        return ExpressError(str(self), at)
