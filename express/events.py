"""What an applied decision did, for animation and for sending each seat what it may see.

Every event has ``only``: ``None`` when every seat and spectator may see it, else the seats
(1-based) that may. A server sends an event to a connection when :meth:`Event.visible_to`
says so; spectators are seat 0. Private events never carry anything another seat's view
would not show (rules 72–75): the signer's drawn cards, its kept and returned card, and a
committed plan are the only private facts, and only the signer (or planner) gets them.
Once the game is over everything is public (rule 76), but events already sent stay as sent.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """Base class: ``kind`` names the event; ``seat`` is the acting seat (0 for none)."""

    seat: int
    only: tuple[int, ...] | None = field(default=None, kw_only=True)

    kind = "event"

    def visible_to(self, viewer: int) -> bool:
        """May seat ``viewer`` (0 = spectator) see this event?"""
        return self.only is None or viewer in self.only

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["kind"] = self.kind
        return d


@dataclass(frozen=True)
class Picked(Event):
    character: str
    kind = "picked"


@dataclass(frozen=True)
class PlanCommitted(Event):
    """Public: the seat has committed a plan (nothing about which)."""

    kind = "plan-committed"


@dataclass(frozen=True)
class PlanChosen(Event):
    """Private to the planner: the plan itself, top card first."""

    cards: tuple[str, ...]
    kind = "plan-chosen"


@dataclass(frozen=True)
class PhaseChanged(Event):
    """The phase moved on (``phase`` as in the position: ``c0``, ``p``, ``a0``, ``r``, ``o``)."""

    round: int
    phase: str
    kind = "phase"


@dataclass(frozen=True)
class CardRevealed(Event):
    card: str
    usable: bool
    kind = "revealed"


@dataclass(frozen=True)
class TurnLost(Event):
    reason: str  # "dormant", "unusable" or "no-path"
    kind = "turn-lost"


@dataclass(frozen=True)
class CarsAttached(Event):
    """Cars went from a complex to the rear of a train (``special``: the ``^`` before moving)."""

    space: int
    spots: tuple[int, ...]
    cars: str
    special: bool
    kind = "attached"


@dataclass(frozen=True)
class Refilled(Event):
    """Cars drawn from the bag onto a complex (public once drawn); ``bag`` is the count left."""

    space: int
    cars: str
    bag: int
    kind = "refilled"


@dataclass(frozen=True)
class BagEmpty(Event):
    """A refill found the bag empty: flag ``e`` (rule 62)."""

    kind = "bag-empty"


@dataclass(frozen=True)
class LastRound(Event):
    """Flag ``l``: this round is the last (rules 63–64)."""

    round: int
    kind = "last-round"


@dataclass(frozen=True)
class Moved(Event):
    """A movement: the spaces entered in order (``path`` as written, ``*`` for the Driver)."""

    path: str
    spaces: tuple[int, ...]
    start: int
    end: int
    driver: bool
    kind = "moved"


@dataclass(frozen=True)
class Upgraded(Event):
    engine: str
    kind = "upgraded"


@dataclass(frozen=True)
class Exchanged(Event):
    space: int
    given: str
    taken: str
    kind = "exchanged"


@dataclass(frozen=True)
class Uncoupled(Event):
    positions: tuple[int, ...]
    cars: str
    kind = "uncoupled"


@dataclass(frozen=True)
class ContractSigned(Event):
    """Public: the seat signed (``choice`` 1, 2 or 0); the deck is now ``deck`` cards."""

    choice: int
    deck: int
    kind = "signed"


@dataclass(frozen=True)
class ContractsDrawn(Event):
    """Private to the signer: the cards drawn, the one kept (or None) and the one put back."""

    drawn: tuple[str, ...]
    kept: str | None
    returned: str | None
    kind = "contracts-drawn"


@dataclass(frozen=True)
class Fulfilled(Event):
    contract: str
    cars: str
    value: int
    kind = "fulfilled"


@dataclass(frozen=True)
class Reordered(Event):
    space: int
    before: str
    after: str
    kind = "reordered"


@dataclass(frozen=True)
class ExtraStep(Event):
    step: str
    start: int
    end: int
    kind = "extra-step"


@dataclass(frozen=True)
class TurnEnded(Event):
    token: str  # the turn as written in the record (it reveals nothing hidden)
    kind = "turn-ended"


@dataclass(frozen=True)
class RoundEnded(Event):
    """Characters back, Driver face up, stationmaster passed (rules 57–58)."""

    round: int
    stationmaster: int
    kind = "round-ended"


@dataclass(frozen=True)
class Swapped(Event):
    """The refit piece traded places with ``piece`` (rule 59–60)."""

    refit_from: int
    refit_to: int
    piece: str
    kind = "swapped"


@dataclass(frozen=True)
class Resigned(Event):
    kind = "resigned"


@dataclass(frozen=True)
class GameOver(Event):
    result: dict[str, list[int]]
    kind = "over"


def for_seat(events: list[Event], viewer: int) -> list[Event]:
    """The events seat ``viewer`` (0: a spectator) may be sent, in order."""
    return [e for e in events if e.visible_to(viewer)]
