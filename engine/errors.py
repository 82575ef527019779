"""The engine's one exception type for bad input."""

from __future__ import annotations


class EngineError(ValueError):
    """Bad input: a malformed position, record or token, or an illegal turn.

    ``at`` is the 0-based index of the offending turn token in a record (``resign``
    counted), or ``None`` when the fault is in a header, a position or an argument.
    """

    def __init__(self, message: str, at: int | None = None) -> None:
        super().__init__(message)
        self.at = at

    def with_at(self, at: int | None) -> EngineError:
        """The same error, placed at a turn index (used by record replay)."""
        return EngineError(str(self), at)
