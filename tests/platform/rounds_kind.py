"""What the test-only kinds of simultaneous rounds share: 2 to 4 seats each make one decision
a round, at the same time and in any order; when every seat still in has decided, the round
is revealed together and the next begins. A seat that resigns is out; the game is over after
the last round or when one seat is left. Only for tests.

Two kinds stand on it, each in its own module so the tests import them where they always
have: Bid (tests/platform/bid_kind.py: hidden bids and notes, seats numbering their own
decisions, a bot stand-in for leavers) and Picks (tests/platform/clock_kind.py: "think
again" decisions and a timeout policy, for the clocks). What differs is theirs: what a
decision is (`apply`), when a round is complete (`complete`), what its reveal scores and says
(`reveal`), how a new round starts (`new_round`) and how the seats rank (`ranking`).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from games.kinds import Event, GameKind, KindError, LiveGame, Result


class RoundsGame(LiveGame):
    """A game of rounds of simultaneous decisions. Subclasses set `n` (seats), `rounds`,
    `round` (from 1), `scores`, `out` (the seats that resigned) and `tokens`."""

    n: int
    rounds: int
    round: int
    scores: list[int]
    out: set[int]
    tokens: list[str]

    @property
    @abstractmethod
    def decided(self) -> list[Any]:
        """This round's decision of each seat (None: still to decide)."""

    @property
    def playing(self) -> list[int]:
        """The seats still in (not resigned)."""
        return [s for s in range(self.n) if s not in self.out]

    def acting(self) -> list[int]:
        if self.over:
            return []
        return [s for s in self.playing if self.decided[s] is None]

    @abstractmethod
    def complete(self) -> bool:
        """Is this round ready to be revealed?"""

    @abstractmethod
    def reveal(self, ply: int) -> Event:
        """Score the round and say it (the round is then over: `new_round`)."""

    @abstractmethod
    def new_round(self) -> None:
        """Forget the round just revealed."""

    @abstractmethod
    def ranking(self) -> list[Any]:
        """A key per seat, higher is better (equal keys share a place)."""

    def reveal_if_complete(self, ply: int) -> list[Event]:
        if not self.complete():
            return []
        events = [self.reveal(ply)]
        self.round += 1
        self.new_round()
        if self.over:
            events.append({"type": "over", "ply": ply})
        return events

    def resign(self, seat: int) -> list[Event]:
        if self.over or seat in self.out:
            raise KindError("that seat cannot resign now")
        self.out.add(seat)
        return [{"type": "resigned", "seat": seat, "ply": self.ply},
                *self.reveal_if_complete(self.ply)]

    @property
    def over(self) -> bool:
        return self.round > self.rounds or len(self.playing) <= 1

    @property
    def resigned(self) -> list[int]:
        return sorted(self.out)

    def result(self) -> Result | None:
        if not self.over:
            return None
        keys = self.ranking()
        places = tuple(1 + sum(other > mine for other in keys) for mine in keys)
        return Result(scores=tuple(self.scores), places=places)


class RoundsKind(GameKind):
    """A kind of rounds: 2 to 4 seats named by `seat_names`, a `rounds` option."""

    seat_counts = (2, 3, 4)
    rules_version = "1"
    seat_names: tuple[str, ...]

    def seat_key(self, seat: int) -> str:
        return self.seat_names[seat]

    @staticmethod
    def rounds_option(options: dict[str, Any], most: int) -> int:
        rounds = options.get("rounds", 3)
        if not isinstance(rounds, int) or not 1 <= rounds <= most:
            raise KindError(f"rounds must be 1 to {most}")
        return rounds
