"""Puzzle records and the week's schedule, as the site reads them: the engine's notation in,
a `Puzzle`'s three parts out; goals in words; what each day of the week asks for.

The puzzles app imports `engine` directly (not through `games.kinds`): puzzle mode, the
solver and the generator are Cargo Connect's own and have no counterpart in the game-kind
interface, and puzzles are not live games (docs/puzzles-site.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import EngineError, format_position, parse_goal, parse_record
from engine.generator import SCHEDULE
from engine.notation import Goal

from .models import DAY_NAMES

ARTICLE = {"O": "an", "I": "an", "L": "an", "S": "an", "T": "a", "J": "a", "Z": "a"}


class RecordError(ValueError):
    """A puzzle record the site cannot take, with a message for the curator."""


@dataclass(frozen=True)
class Parts:
    """A puzzle's Start (position text), goal, limit, and the bay's size and rules."""

    start: str
    goal: str
    turns: int
    size: int
    rules: str


def parse(text: str) -> Parts:
    """A puzzle record (headers only; other headers are ignored) as its parts."""
    try:
        record = parse_record(text)
    except EngineError as e:
        raise RecordError(str(e)) from None
    if record.goal is None or record.limit is None:
        raise RecordError("a puzzle record needs Goal and Turns headers (and a Start)")
    if record.tokens:
        raise RecordError(f"a puzzle record to publish holds no turns (found {len(record.tokens)}:"
                          f" {' '.join(record.tokens[:4])})")
    if record.limit > 9:
        raise RecordError(f"a turn limit of {record.limit} is more than a week's puzzle needs "
                          f"(at most 4)")
    return Parts(format_position(record.start), str(record.goal), record.limit,
                 record.start.n, record.start.rules)


def goal_of(text: str) -> Goal:
    return parse_goal(text)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def goal_words(goal: str, turns: int) -> str:
    """The goal as a sentence: "Unload an S in 3 turns.", "Gain 12 points in 4 turns."...

    A score goal counts the points gained during the puzzle (rules.md 24), not Blue's total,
    which may already be higher: hence "Gain", not the rulebook's "Score 12" (issue #27)."""
    g = parse_goal(goal)
    within = f"in {_plural(turns, 'turn')}"
    if g.kind == "unload":
        shape = str(g).split(":")[1]
        return f"Unload {ARTICLE[shape]} {shape} {within}."
    if g.kind == "score":
        return f"Gain {_plural(g.amount, 'point')} {within}."
    return f"Unload {_plural(g.amount, 'AppCon')} {within}."


def progress_words(goal: str, gained: int, unloaded: int) -> str | None:
    """How far an attempt is towards a counted goal: "Gained 3 of 7 points.", "Unloaded 1
    of 2 AppCons."; None for a shape goal (it is met or not)."""
    g = parse_goal(goal)
    if g.kind == "score":
        done, word = gained, "point"
    elif g.kind == "appcons":
        done, word = unloaded, "AppCon"
    else:
        return None
    if done >= g.amount:
        return f"{'Gained' if word == 'point' else 'Unloaded'} {_plural(done, word)}: " \
               f"the goal of {g.amount} is met."
    return f"{'Gained' if word == 'point' else 'Unloaded'} {done} of {_plural(g.amount, word)}."


@dataclass(frozen=True)
class DaySchedule:
    size: int
    limits: tuple[int, ...]
    needs_card: bool

    def words(self) -> str:
        limits = "–".join(str(t) for t in (self.limits[0], self.limits[-1])) \
            if len(self.limits) > 1 else str(self.limits[0])
        card = ", needing a card" if self.needs_card else ""
        return f"{self.size}×{self.size} in {limits} turns{card}"


#: Monday..Sunday (rulebook "Weekly Puzzles"; the generator schedules by the same table).
WEEK_SCHEDULE = tuple(DaySchedule(size, tuple(limits), card) for size, limits, card in SCHEDULE)


def schedule_problems(day: int, size: int, turns: int) -> list[str]:
    """What is wrong with a puzzle of this size and limit on this day (empty: it fits)."""
    plan = WEEK_SCHEDULE[day]
    out = []
    if size != plan.size:
        out.append(f"{DAY_NAMES[day]} is {plan.words()}: this puzzle is {size}×{size}")
    if turns not in plan.limits:
        out.append(f"{DAY_NAMES[day]} is {plan.words()}: this puzzle's limit is {turns}")
    return out
