"""What a Swiss tournament remembers of each entrant: one record per round.

Pairing (:mod:`.dutch`) and tie breaks (:mod:`.tiebreaks`) read only these values, so the
callers decide how rows are stored. Scores are FIDE's: a win 1, a draw ½, a loss 0, the
pairing-allocated bye 1 (a win, C.04.1), a forfeit as its result, an absent round 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class Seat(StrEnum):
    """A board's seat. The first seat moves first (Blue in Cargo Connect): FIDE's White."""

    FIRST = "first"
    SECOND = "second"


class Outcome(StrEnum):
    """One entrant's round."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"  # paired, the opponent never played: a win, not a game
    FORFEIT_LOSS = "forfeit_loss"
    BYE = "bye"  # the pairing-allocated bye of an odd round
    ABSENT = "absent"  # not paired: withdrawn, excused, or not yet entered (a late joiner)


POINTS: Mapping[Outcome, float] = {
    Outcome.WIN: 1.0,
    Outcome.DRAW: 0.5,
    Outcome.LOSS: 0.0,
    Outcome.FORFEIT_WIN: 1.0,
    Outcome.FORFEIT_LOSS: 0.0,
    Outcome.BYE: 1.0,
    Outcome.ABSENT: 0.0,
}
PLAYED = frozenset({Outcome.WIN, Outcome.DRAW, Outcome.LOSS})
WITH_OPPONENT = PLAYED | {Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS}


@dataclass(frozen=True)
class RoundRecord:
    """One round of one entrant: the outcome, and for a paired round the opponent and seat.

    A forfeit names the opponent it was paired with (its seat may be left out); a bye and
    an absent round have neither.
    """

    outcome: Outcome
    opponent: int | None = None
    seat: Seat | None = None

    def __post_init__(self) -> None:
        paired = self.outcome in WITH_OPPONENT
        if paired != (self.opponent is not None):
            raise ValueError(f"{self.outcome} needs an opponent exactly when it was paired")
        if self.outcome in PLAYED and self.seat is None:
            raise ValueError(f"a played round ({self.outcome}) needs its seat")
        if not paired and self.seat is not None:
            raise ValueError(f"{self.outcome} has no seat")

    @property
    def points(self) -> float:
        return POINTS[self.outcome]

    @property
    def played(self) -> bool:
        """A game was played over the board (a forfeit, a bye or an absence was not)."""
        return self.outcome in PLAYED


@dataclass(frozen=True)
class Entrant:
    """An entrant and their rounds so far, oldest first: one record per round paired.

    ``rating`` orders the entrants for pairing (FIDE's initial order); keep it as it was
    at entry so the order does not move during the event. A withdrawn entrant is never
    paired again, but stays in the list: their past games count for their opponents.
    """

    id: int
    rating: int
    history: tuple[RoundRecord, ...] = ()
    withdrawn: bool = False

    @property
    def score(self) -> float:
        return self.score_after(len(self.history))

    def score_after(self, rounds: int) -> float:
        """The score after the first ``rounds`` rounds."""
        return sum(record.points for record in self.history[:rounds])

    @property
    def colours(self) -> str:
        """FIDE's colour history: ``W`` (first seat), ``B`` (second), ``-`` no game played."""
        return "".join(_colour(record) for record in self.history)

    @property
    def opponents(self) -> frozenset[int]:
        """Whom the entrant has played. A forfeited game is no meeting: they may meet."""
        return frozenset(r.opponent for r in self.history if r.played and r.opponent is not None)

    @property
    def had_bye(self) -> bool:
        return any(record.outcome is Outcome.BYE for record in self.history)

    @property
    def forfeit_wins(self) -> int:
        return sum(record.outcome is Outcome.FORFEIT_WIN for record in self.history)


def _colour(record: RoundRecord) -> str:
    if not record.played:
        return "-"
    return "W" if record.seat is Seat.FIRST else "B"


def absent_rounds(count: int) -> tuple[RoundRecord, ...]:
    """The history of a late joiner who missed ``count`` rounds: absent, no points.

    FIDE lets a tournament's rules give late entrants half points for missed rounds; this
    site gives none, so a late joiner starts on 0 (docs/tournaments.md).
    """
    return (RoundRecord(Outcome.ABSENT),) * count
