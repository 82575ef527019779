"""A shift or a puzzle run: a start position plus the turns played, and its result.

This is the API the site uses: it speaks tokens, never integers, validates everything,
and returns what each turn did as a list of events for animation and broadcasting.
"""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError
from engine.geometry import SHAPE_ORDER
from engine.notation import (
    Goal,
    Record,
    action_token,
    format_position,
    format_record,
    interpret_turn,
    parse_position,
    parse_record,
    start_position,
)
from engine.position import BLUE, CURRENT_RULES, SIDE_NAMES, Event, FinalAudit, Position


class Game:
    """A shift (or, with a goal and a turn limit, a puzzle run) from its start."""

    def __init__(
        self,
        start: Position,
        goal: Goal | None = None,
        limit: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        if (goal is None) != (limit is None):
            raise EngineError("a puzzle needs both a goal and a turn limit")
        self.start = start.copy()
        self.start.solo = goal is not None
        self.position = self.start.copy()
        self.goal = goal
        self.limit = limit
        self.headers = dict(headers or {})
        self.tokens: list[str] = []
        self.resigned: int | None = None  # the side that resigned
        # Puzzle progress: points and AppCons gained during the run, whether solved.
        self.gained = 0
        self.unloaded = 0
        self.solved = False

    # --- making games ----------------------------------------------------------------

    @classmethod
    def new(cls, size: int = 8, rules: str = CURRENT_RULES) -> Game:
        return cls(start_position(size, rules))

    @classmethod
    def from_position(cls, text: str) -> Game:
        return cls(parse_position(text))

    @classmethod
    def from_record(cls, text: str | Record) -> Game:
        """Replay a record; an error names the bad token's index in ``at``."""
        record = parse_record(text) if isinstance(text, str) else text
        game = cls(record.start, record.goal, record.limit, record.headers)
        for i, token in enumerate(record.tokens):
            try:
                if token == "resign":
                    game.resign()
                else:
                    game.play(token)
            except EngineError as e:
                raise e.with_at(i) from None
        return game

    # --- what may happen next ----------------------------------------------------------

    @property
    def is_puzzle(self) -> bool:
        return self.goal is not None

    @property
    def ply(self) -> int:
        """Turns played in this game (a resign is not a turn)."""
        return len(self.tokens)

    @property
    def over(self) -> bool:
        if self.resigned is not None or self.solved:
            return True
        if self.is_puzzle and self.limit is not None and self.ply >= self.limit:
            return True
        return self.position.is_over()

    def legal(self) -> list[str]:
        """Every legal Phase 1 token for the side to move, sorted as strings."""
        return sorted(self.action_tokens().values())

    def action_tokens(self) -> dict[int, str]:
        """Each legal Phase 1 action of the side to move, with its token (none once over)."""
        if self.over:
            return {}
        p = self.position
        return {a: action_token(a, p) for a in p.actions()}

    def unloads(self) -> list[tuple[str, str]]:
        """The AppCons the side to move could unload now: (cells, shape), sorted."""
        return unloads(self.position)

    # --- playing -------------------------------------------------------------------------

    def play(self, token: str) -> list[Event]:
        """Play one turn token; return what happened. Raises EngineError, changing nothing."""
        if token == "resign":
            return self.resign()
        if self.resigned is not None:
            raise EngineError(f"{token!r}: the game is over ({SIDE_NAMES[self.resigned]} resigned)")
        if self.solved:
            raise EngineError(f"{token!r}: the puzzle is already solved")
        if self.is_puzzle and self.limit is not None and self.ply >= self.limit:
            raise EngineError(f"{token!r}: the puzzle's turn limit of {self.limit} is used up")
        p = self.position
        if p.is_over():
            raise EngineError(f"{token!r}: the shift is over")
        action, unload = interpret_turn(token, p)
        events: list[Event] = []
        ply = self.ply
        p.play(action, unload, events)
        self.tokens.append(token)
        if unload and self.is_puzzle:
            self._puzzle_progress(events[-1])
        if self.over:
            events.append(self._end_event())
        for event in events:
            event["ply"] = ply
        return events

    def _puzzle_progress(self, unload: Event) -> None:
        self.gained += unload["gained"]
        self.unloaded += 1
        goal = self.goal
        assert goal is not None
        if goal.kind == "unload":
            self.solved = unload["shape"] == SHAPE_ORDER[goal.shape]
        elif goal.kind == "score":
            self.solved = self.gained >= goal.amount
        else:
            self.solved = self.unloaded >= goal.amount

    def resign(self, side: int | None = None) -> list[Event]:
        """The side to move (or the given side) resigns; the other wins."""
        if self.over:
            raise EngineError("'resign': the game is already over")
        self.resigned = self.position.side if side is None else side
        return [self._end_event() | {"ply": self.ply}]

    def _end_event(self) -> Event:
        event: Event = {"type": "over", "result": self.result()}
        if not self.is_puzzle:
            event["audit"] = self.audit().as_dict()
        if self.resigned is not None:
            event["resigned"] = SIDE_NAMES[self.resigned]
        return event

    # --- the outcome ------------------------------------------------------------------

    def audit(self) -> FinalAudit:
        """The Final Audit of the current position (also used when a player resigns)."""
        return self.position.audit()

    def result(self) -> dict[str, Any] | None:
        """None while the game goes on; else winner and both final scores, as the CLI prints."""
        if not self.over:
            return None
        if self.is_puzzle:
            return {
                "winner": "blue" if self.solved else None,
                "blue": self.position.points[BLUE],
                "orange": 0,
            }
        audit = self.audit()
        winner = audit.winner
        if self.resigned is not None:
            winner = SIDE_NAMES[self.resigned ^ 1]
        return {"winner": winner, "blue": audit.blue.final, "orange": audit.orange.final}

    def summary(self) -> dict[str, Any]:
        """The replay JSON of notation.md: position, legal, over, result."""
        return {
            "position": format_position(self.position),
            "legal": self.legal(),
            "over": self.over,
            "result": self.result(),
        }

    def record(self) -> str:
        """The game as a record in the notation (headers, Start if not the empty bay, turns)."""
        headers = dict(self.headers)
        headers["Size"] = str(self.start.n)
        headers["Rules"] = self.start.rules
        empty = start_position(self.start.n, self.start.rules)
        if self.start.solo or not self.start.key() == empty.key() or self.start.turns:
            headers["Start"] = format_position(self.start)
        if self.is_puzzle:
            headers["Goal"] = str(self.goal)
            headers["Turns"] = str(self.limit)
        tokens = self.tokens + (["resign"] if self.resigned is not None else [])
        return format_record(headers, tokens)


def unloads(p: Position) -> list[tuple[str, str]]:
    """The AppCons the side to move could unload in a position: (cells, shape), sorted."""
    return [(p.g.names(a.mask), SHAPE_ORDER[a.shape]) for a in p.appcons(p.side)]
