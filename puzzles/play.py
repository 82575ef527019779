"""Playing a puzzle: the one place a puzzle attempt's turns are applied.

Puzzles are solo and short (at most a few turns), so an attempt is not stored as a live
game: each request carries the attempt's turns so far, the server replays them from the
puzzle's Start with the engine's puzzle mode (`engine.Game` with its goal and limit),
applies the new turn and answers with the events and the state after it. The engine
decides every rule; a bad or late turn raises `PlayError` and nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import EngineError, Game, parse_record
from engine.describe import CARD_NAMES, describe
from engine.position import CARD_ORDER

from .models import Puzzle
from .records import goal_words, progress_words

MAX_TOKEN = 40


class PlayError(Exception):
    """A refused request: `code` (bad_request, illegal, over), a message, the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400,
                 at: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.at = at

    def as_dict(self) -> dict[str, Any]:
        return {"error": self.message, "code": self.code, "at": self.at}


def new_game(puzzle: Puzzle) -> Game:
    record = parse_record(puzzle.record)
    return Game(record.start, record.goal, record.limit)


def check_tokens(value: Any, limit: int) -> list[str]:
    """The attempt's turns so far, as sent: a list of at most `limit` short strings."""
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise PlayError("bad_request", "tokens must be a list of turn tokens")
    if len(value) > limit:
        raise PlayError("bad_request", f"an attempt has at most {limit} turns, not {len(value)}")
    if any(len(t) > MAX_TOKEN for t in value):
        raise PlayError("bad_request", "a turn token is at most 40 characters")
    return value


def replay(puzzle: Puzzle, tokens: list[str]) -> Game:
    """The attempt after `tokens` (each applied by the engine, from the Start)."""
    game = new_game(puzzle)
    for i, token in enumerate(check_tokens(tokens, puzzle.turns)):
        try:
            game.play(token)
        except EngineError as e:
            raise PlayError("bad_request", f"turn {i + 1} of the attempt: {e}", at=i) from None
    return game


def status_of(game: Game) -> str:
    if game.solved:
        return "solved"
    return "out_of_turns" if game.over else "playing"


def state(puzzle: Puzzle, game: Game) -> dict[str, Any]:
    """What the page draws: the engine's description plus the puzzle's goal and turns left."""
    out = describe(game)
    out["card_names"] = [[card, CARD_NAMES[card]] for card in CARD_ORDER]
    out["turns"] = list(game.tokens)
    limit = puzzle.turns
    out["puzzle"] = {
        "goal": puzzle.goal,
        "goal_words": goal_words(puzzle.goal, limit),
        "limit": limit,
        "turns_left": max(limit - game.ply, 0),
        "gained": game.gained,
        "unloaded": game.unloaded,
        "progress_words": progress_words(puzzle.goal, game.gained, game.unloaded),
        "status": status_of(game),
    }
    return out


@dataclass
class Played:
    game: Game
    events: list[dict[str, Any]]
    state: dict[str, Any]


def play_turn(puzzle: Puzzle, tokens: list[str], token: Any) -> Played:
    """Apply one more turn to the attempt `tokens`."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        raise PlayError("bad_request", "token must be a turn token such as a or S>+a1a2b1b2")
    game = replay(puzzle, tokens)
    if game.over:
        what = "solved" if game.solved else "out of turns"
        raise PlayError("over", f"{token!r}: this attempt is over ({what}); retry to play again",
                        status=409)
    if token == "resign":
        raise PlayError("illegal", "a puzzle has no resigning: use Show the solution or Retry")
    try:
        events = game.play(token)
    except EngineError as e:
        raise PlayError("illegal", str(e)) from None
    return Played(game, events, state(puzzle, game))


def solution_steps(puzzle: Puzzle) -> list[dict[str, Any]]:
    """The solver's line from the Start: each step's token, events and the state after it."""
    game = new_game(puzzle)
    steps: list[dict[str, Any]] = [{"token": None, "events": [], "state": state(puzzle, game)}]
    for token in puzzle.solution.split():
        events = game.play(token)
        steps.append({"token": token, "events": events, "state": state(puzzle, game)})
    return steps
