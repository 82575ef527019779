"""The review of a finished Weekly Puzzle attempt, by the exact solver.

A Weekly Puzzle has no opponent and one question: can the goal still be met in the turns
left? The exact solver (engine.solver) answers it before and after every turn of an
attempt, so the review of an attempt is proven rather than searched: a turn is marked
(a "blunder") when the goal could be met in time before it and cannot after it. Its reason
names the fact on the board when one applies (a card that destroyed one's own AppCon, the
unload the solver's turn makes now), then the proof (the solver searched every line in the
turns left) and the solver's line from before the turn.

Owns the puzzle review, its reason's words included; it shares the facts
(engine.review_facts) and the words for an action and an unload (engine.review_words) with
the game review (engine.review), which it does not import. Pure engine work (standard
library only).

API
---
``review_puzzle(start, goal, limit, tokens) -> PuzzleReview``
    ``start`` is the puzzle's Start (a Position), ``tokens`` the attempt's turns; the
    attempt must be over. ``PuzzleReview.as_dict()`` is JSON-ready, and a new
    ``PUZZLE_REVIEW_VERSION`` makes stored reviews stale.
``still_needed(game) -> Goal``
    The goal still to meet after the attempt so far.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from engine.describe import rows
from engine.errors import EngineError
from engine.game import Game
from engine.geometry import SHAPE_ORDER
from engine.notation import Goal, interpret_turn, turn_token
from engine.position import ROTATE_LEFT, ROTATE_RIGHT, SIDE_NAMES, Position
from engine.review_facts import broken_own, locked_corridor, unload_made
from engine.review_words import ARTICLE, phrase, points_for
from engine.solver import Solution, solve

PUZZLE_REVIEW_VERSION = "p1"
PUZZLE_GRADE = "blunder"


@dataclass
class PuzzleTurn:
    """One turn of a puzzle attempt as the solver saw it."""

    ply: int
    side: str  # always "blue"
    token: str
    best: str  # the solver's first turn from the position before ("" if already lost)
    turns_left: int  # before the turn
    fewest_before: int | None  # the fewest turns that meet the goal from before, or None
    fewest_after: int | None  # after the turn played: 0 if it met the goal, None if lost
    line: list[str]  # the solver's line from before the turn
    nodes: int
    grade: str = ""
    reason: str = ""
    cells: list[str] = field(default_factory=list)
    before: list[str] = field(default_factory=list)
    before_lock: str | None = None
    after_played: list[str] = field(default_factory=list)
    played_lock: str | None = None
    after_best: list[str] = field(default_factory=list)
    best_lock: str | None = None


@dataclass
class PuzzleReview:
    """A puzzle attempt's review."""

    version: str
    size: int
    rules: str
    goal: str
    limit: int
    outcome: str  # "solved" or "out_of_turns"
    turns: list[PuzzleTurn]
    lost_at: int | None  # the marked turn's ply
    nodes: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def still_needed(game: Game) -> Goal:
    """The goal still to meet after the attempt so far (a puzzle Game), as a Goal."""
    goal = game.goal
    assert goal is not None
    if goal.kind == "score":
        return Goal("score", amount=goal.amount - game.gained)
    if goal.kind == "appcons":
        return Goal("appcons", amount=goal.amount - game.unloaded)
    return goal


def _need_words(goal: Goal) -> str:
    if goal.kind == "unload":
        shape = SHAPE_ORDER[goal.shape]
        return f"unload {ARTICLE[shape]} {shape}"
    if goal.kind == "score":
        return f"score the {goal.amount} point{'s' if goal.amount != 1 else ''} still needed"
    return f"unload the {goal.amount} AppCon{'s' if goal.amount != 1 else ''} still needed"


def _turns(n: int) -> str:
    return f"{n} turn{'s' if n != 1 else ''}"


def _solve_from(game: Game, turns_left: int) -> Solution:
    """The solver's answer for the rest of an attempt: the position now, the goal still
    needed, the turns left."""
    return solve(Game(game.position, still_needed(game), turns_left))


def _puzzle_reason(p: Position, action: int, unload: int, best_action: int, best_unload: int,
                   *, need: Goal, turns_left: int, fewest: int, line: list[str],
                   stuck: bool, nodes_after: int) -> tuple[str, list[str]]:
    """Why a turn lost the puzzle: the fact on the board, if one applies, then the proof."""
    fact, cells = "", []
    broken = broken_own(p, action)
    mine_now = unload_made(p, action, unload)
    mine_best = unload_made(p, best_action, best_unload)
    if broken is not None and broken_own(p, best_action) is None:
        how = "broke up" if action in (ROTATE_LEFT, ROTATE_RIGHT) else "destroyed"
        cells = [p.g.name(c) for c in broken.cells]
        fact = (f"{phrase(action, p)} {how} your own {SHAPE_ORDER[broken.shape]} "
                f"({' '.join(cells)}). ")
    elif mine_best is not None and (mine_now is None or mine_now.cells != mine_best.cells):
        cells = mine_best.named()
        created = not any(p.g.names(a.mask) == mine_best.cells for a in p.appcons(p.side))
        what = f"your {mine_best.shape} ({mine_best.spaced()})"
        met = "and met the goal" if fewest == 1 else points_for(mine_best, chit_apart=True)
        if created:
            fact = f"{phrase(best_action, p, doing=True)} would have completed {what} {met}"
        else:
            fact = f"Unloading {what} this turn would have " + (
                "met the goal" if fewest == 1 else f"scored {met.removeprefix('for ')}")
        fact += f" ({turn_token(best_action, best_unload, p)}). "
    left = turns_left - 1
    if left == 0:
        proof = f"It was the last turn, and it did not {_need_words(need)}."
    elif stuck:
        proof = (f"After it, no turn can be taken (the bay is full, or no Phase 1 action is "
                 f"legal), with {_turns(left)} left.")
    elif nodes_after == 0:
        proof = (f"After it, no line can {_need_words(need)} in the {_turns(left)} left "
                 f"(the solver rules it out by counting: too few turns for the Blue cores "
                 f"and unloads still needed).")
    else:
        proof = (f"After it, no line can {_need_words(need)} in the {_turns(left)} left "
                 f"(the solver searched them all: {nodes_after} "
                 f"position{'s' if nodes_after != 1 else ''}).")
    solution = (f" The solver's line from before the turn meets the goal in "
                f"{_turns(fewest)}: {' '.join(line)}.")
    return fact + proof + solution, cells


def review_puzzle(start: Position, goal: Goal, limit: int, tokens: list[str]) -> PuzzleReview:
    """Review a finished puzzle attempt (its turns from the puzzle's Start): for each turn,
    the fewest turns to the goal before and after it, the solver's best turn, and the turn
    that lost the puzzle, marked with its reason and boards. EngineError names a bad turn;
    an attempt that is not over is refused (its review would give the solution away)."""
    game = Game(start, goal, limit)
    turns: list[PuzzleTurn] = []
    nodes = 0
    lost_at: int | None = None
    before = None  # the solver's answer for the position before the turn
    for i, token in enumerate(tokens):
        if game.over:
            raise EngineError(f"turn {i + 1}: the attempt is already over", at=i)
        p = game.position.copy()
        try:
            action, unload = interpret_turn(token, p)
        except EngineError as e:
            raise e.with_at(i) from None
        turns_left = limit - i
        need = still_needed(game)
        if before is None:
            before = _solve_from(game, turns_left)
            nodes += before.nodes
        game.play(token)
        after = None
        if game.solved:
            fewest_after: int | None = 0
        elif game.over:
            fewest_after = None
        else:
            after = _solve_from(game, turns_left - 1)
            fewest_after = after.fewest
            nodes += after.nodes
        after_nodes = after.nodes if after is not None else 0
        line = list(before.line or [])
        turn = PuzzleTurn(ply=i, side=SIDE_NAMES[p.side], token=token,
                          best=line[0] if line else "", turns_left=turns_left,
                          fewest_before=before.fewest, fewest_after=fewest_after, line=line,
                          nodes=before.nodes + after_nodes)
        if before.solvable and fewest_after is None:
            best_action, best_unload = interpret_turn(line[0], p)
            turn.grade = PUZZLE_GRADE
            lost_at = i
            turn.reason, turn.cells = _puzzle_reason(
                p, action, unload, best_action, best_unload, need=need,
                turns_left=turns_left, fewest=before.fewest or 0, line=line,
                stuck=game.over and not game.solved and turns_left > 1,
                nodes_after=after_nodes)
            played = game.position
            better = p.copy()
            better.play(best_action, best_unload)
            turn.before, turn.before_lock = rows(p), locked_corridor(p)
            turn.after_played, turn.played_lock = rows(played), locked_corridor(played)
            turn.after_best, turn.best_lock = rows(better), locked_corridor(better)
        turns.append(turn)
        before = after
    if not game.over:
        raise EngineError("the attempt is not over: it is reviewed once solved or out of turns")
    return PuzzleReview(version=PUZZLE_REVIEW_VERSION, size=start.n, rules=start.rules,
                        goal=str(goal), limit=limit,
                        outcome="solved" if game.solved else "out_of_turns", turns=turns,
                        lost_at=lost_at, nodes=nodes)
