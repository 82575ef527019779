"""Berserk: a player of an arena game gives up half their clock for one more point on a win
(issue #46; docs/tournaments-arena.md). lichess's rule, in milliseconds as the site's clocks.

- **When**: in an arena that allows it, in a game with a live clock (``M+I``: not untimed,
  not correspondence), once per player, before the player's own first move; the game must
  still be in play. lichess asks "fewer than two plies played", the same thing when the
  seats alternate, as Cargo Connect's do.
- **The clock left**: half the base time, and no increment for the rest of the game. When
  the base is under 40 increments (lichess's exception, for clocks made of increment, such
  as 1+3), the base is kept whole and only the increment is lost. A clock of no base (0+I)
  cannot be berserked. The site's presets (3+2, 5+3, 10+5, 15+10) all halve.
"""

from __future__ import annotations

from dataclasses import dataclass

INCREMENTS_FOR_FULL_BASE = 40


@dataclass(frozen=True)
class LiveClock:
    """A live time control: the base time and the increment, in milliseconds."""

    base_ms: int
    increment_ms: int

    def __post_init__(self) -> None:
        if self.base_ms < 0 or self.increment_ms < 0:
            raise ValueError(f"a clock cannot be negative: {self!r}")


@dataclass(frozen=True)
class BerserkRequest:
    """What the site knows when a player asks to berserk. ``clock`` None: untimed or
    correspondence."""

    arena_allows: bool
    clock: LiveClock | None
    in_play: bool
    own_moves: int  # turns this player has made in the game
    already_berserk: bool


def berserkable(clock: LiveClock | None) -> bool:
    """Can this time control be berserked at all? Not without a clock nor with no base."""
    return clock is not None and clock.base_ms > 0


def may_berserk(request: BerserkRequest) -> bool:
    """Is the request allowed now?"""
    return (
        request.arena_allows
        and berserkable(request.clock)
        and request.in_play
        and request.own_moves == 0
        and not request.already_berserk
    )


def berserk_clock(clock: LiveClock) -> LiveClock:
    """The berserker's clock: half the base (whole when the base is under 40 increments),
    no increment."""
    if not berserkable(clock):
        raise ValueError(f"{clock!r} cannot be berserked")
    if clock.base_ms < INCREMENTS_FOR_FULL_BASE * clock.increment_ms:
        return LiveClock(clock.base_ms, 0)
    return LiveClock(clock.base_ms // 2, 0)
