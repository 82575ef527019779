"""The game review: which turns of a finished shift cost points, by how much, and why.

Owns the analysis: for every turn of a game, CargoBot Hard's search
(:func:`engine.bot.score_turn`, with a deeper budget than in play, counted in nodes so that
a review is the same on every machine) scores the turn played and its own best turn from
the mover's side, in centipoints of final margin; a turn that lost at least a threshold is
marked and drawn on three boards; the accuracy per side and the graph of the margin; and
the analysis board. Pure engine work (standard library only).

Each mark's reason is built only from facts the engine checks on the board
(engine.review_facts) and said in words by engine.review_words: an AppCon of one's own that
a card destroyed, an AppCon left on the bay that the opponent could then break, what the
turn played let the opponent unload next turn, the unload the suggested turn would have
made, or an unload in CargoBot's expected lines; when none of these explains the loss, what
the suggested turn gains, in words, with the suggested turn the analysis board can replay.
A Weekly Puzzle attempt is reviewed by the exact solver instead (engine.puzzle_review).

API
---
``review_game(start, tokens, *, depth, budget, progress) -> Review``
    ``start`` is a position in notation, ``tokens`` the turns played. ``progress(done,
    total)`` is called after each turn. ``Review.as_dict()`` is JSON-ready.
``analyse(start, tokens, line) -> dict``
    The analysis board: the game's first turns (``tokens``), then the player's own trial
    turns (``line``, each checked by the engine); the last trial turn scored against
    CargoBot's best and CargoBot's suggestion for the position reached.

Thresholds (docs/review.md says how they were chosen): a turn that lost 2 points of final
margin is an inaccuracy, 4 a mistake, 7 a blunder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.bot import BOT_VERSION, score_turn
from engine.bot_eval import WIN
from engine.describe import rows
from engine.errors import EngineError
from engine.notation import interpret_turn, parse_position, turn_token
from engine.position import SIDE_NAMES, Position
from engine.review_facts import after_turn, locked_corridor
from engine.review_words import explain, phrase

#: The review's search: deeper than Hard in play (5 turns, 24 000 nodes).
REVIEW_DEPTH = 6
REVIEW_BUDGET = 80_000
#: The analysis board answers while the player waits: Hard's own budget in play.
ANALYSIS_DEPTH = 5
ANALYSIS_BUDGET = 24_000
#: Marks by the loss in centipoints of final margin, largest first.
THRESHOLDS = (("blunder", 700), ("mistake", 400), ("inaccuracy", 200))
#: A loss counts only as far as the last this-many finished iterations all see it.
AGREE = 3
#: Changes when a review of the same game could come out differently.
REVIEW_VERSION = f"2/bot{BOT_VERSION}/d{REVIEW_DEPTH}/n{REVIEW_BUDGET}/a{AGREE}"
#: The analysis board's line of trial turns is at most this long.
MAX_LINE = 64
#: A turn's accuracy falls from 100 to 0 as its loss grows to this many centipoints.
ACCURACY_SPAN = 1000


@dataclass
class TurnReview:
    """One turn of the game as the review saw it."""

    ply: int  # 0 for the first turn
    side: str  # "blue" / "orange"
    token: str
    best: str  # CargoBot's best turn
    played_value: int  # centipoints of final margin, from the mover's side
    best_value: int
    loss: int  # best_value - played_value, never below 0
    grade: str  # "", "inaccuracy", "mistake" or "blunder"
    depth: int
    nodes: int
    reason: str = ""
    cells: list[str] = field(default_factory=list)  # the cells the reason names
    before: list[str] = field(default_factory=list)  # the bay before the turn (marked only)
    before_lock: str | None = None
    after_played: list[str] = field(default_factory=list)
    played_lock: str | None = None
    after_best: list[str] = field(default_factory=list)
    best_lock: str | None = None


@dataclass
class Review:
    """A whole game's review."""

    version: str
    size: int
    rules: str
    depth: int
    budget: int
    turns: list[TurnReview]
    graph: list[int]  # Blue's margin in centipoints before each turn, and at the end
    accuracy: dict[str, int]  # per side, percent
    marks: dict[str, dict[str, int]]  # per side, grade -> count
    nodes: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# --- values ----------------------------------------------------------------------------


def margin(value: int) -> int:
    """A searched value as a final margin in centipoints (a finished shift's WIN removed)."""
    if value >= WIN // 2:
        return value - WIN
    if value <= -WIN // 2:
        return value + WIN
    return value


def grade(loss: int) -> str:
    for name, threshold in THRESHOLDS:
        if loss >= threshold:
            return name
    return ""


def turn_accuracy(loss: int) -> int:
    """100 for a turn as good as CargoBot's, falling by 10 per point lost, at least 0."""
    return max(0, 100 - loss * 100 // ACCURACY_SPAN)


# --- the review ------------------------------------------------------------------------


def _replay(start: str, tokens: list[str]) -> list[tuple[Position, int, int]]:
    """(position before, action, unload) for each token; EngineError names a bad one."""
    p = parse_position(start)
    if p.solo:
        raise EngineError("a review scores shifts, not puzzle runs")
    out = []
    for i, token in enumerate(tokens):
        try:
            action, unload = interpret_turn(token, p)
        except EngineError as e:
            raise e.with_at(i) from None
        out.append((p.copy(), action, unload))
        p.play(action, unload)
    out.append((p, -1, 0))
    return out


def review_turn(p: Position, action: int, unload: int, *, ply: int, depth: int, budget: int,
                next_action: int | None = None) -> TurnReview:
    """One turn's review: its value, the best turn's, the mark and, if marked, the reason
    with its boards."""
    score = score_turn(p, action, unload, depth=depth, budget=budget)
    # The loss is the smallest of the last AGREE finished iterations (ties: the deepest), so
    # a turn is marked only when the search sees the loss at every one of those depths.
    chosen = None
    for d, v_best, a_best, m_best, v_played in score.iterations[-AGREE:]:
        loss = max(0, margin(v_best) - margin(v_played))
        if chosen is None or loss <= chosen[0]:
            chosen = (loss, d, margin(v_best), a_best, m_best, margin(v_played))
    assert chosen is not None
    loss, searched, best_value, best_action, best_unload, played_value = chosen
    mark = grade(loss)
    turn = TurnReview(ply=ply, side=SIDE_NAMES[p.side], token=turn_token(action, unload, p),
                      best=turn_token(best_action, best_unload, p),
                      played_value=played_value, best_value=best_value, loss=loss,
                      grade=mark, depth=searched, nodes=score.nodes)
    if mark:
        turn.reason, turn.cells = explain(
            p, action, unload, best_action, best_unload,
            played_value=played_value, best_value=best_value, depth=searched,
            next_action=next_action)
        played = after_turn(p, action, unload)
        better = after_turn(p, best_action, best_unload)
        turn.before, turn.before_lock = rows(p), locked_corridor(p)
        turn.after_played, turn.played_lock = rows(played), locked_corridor(played)
        turn.after_best, turn.best_lock = rows(better), locked_corridor(better)
    return turn


def review_game(start: str, tokens: list[str], *, depth: int = REVIEW_DEPTH,
                budget: int = REVIEW_BUDGET,
                progress: Callable[[int, int], None] | None = None) -> Review:
    """Review every turn of a game (see the module docstring)."""
    steps = _replay(start, tokens)
    total = len(tokens)
    turns: list[TurnReview] = []
    graph: list[int] = []
    nodes = 0
    for i, (p, action, unload) in enumerate(steps[:-1]):
        following = steps[i + 1][1] if i + 1 < total else None
        turn = review_turn(p, action, unload, ply=i, depth=depth, budget=budget,
                           next_action=following)
        turns.append(turn)
        nodes += turn.nodes
        graph.append(turn.best_value if p.side == 0 else -turn.best_value)
        if progress is not None:
            progress(i + 1, total)
    last = steps[-1][0]
    if last.is_over():
        audit = last.audit()
        graph.append((audit.blue.final - audit.orange.final) * 100)
    else:  # resigned: the last position's searched value
        score = score_turn(last, sorted(last.actions())[0], 0, depth=depth, budget=budget)
        nodes += score.nodes
        value = margin(score.best)
        graph.append(value if last.side == 0 else -value)
    accuracy: dict[str, int] = {}
    marks: dict[str, dict[str, int]] = {}
    for side in SIDE_NAMES:
        mine = [t for t in turns if t.side == side]
        accuracy[side] = (sum(turn_accuracy(t.loss) for t in mine) // len(mine)) if mine else 100
        marks[side] = {name: sum(1 for t in mine if t.grade == name) for name, _ in THRESHOLDS}
    p0 = steps[0][0]
    return Review(version=REVIEW_VERSION, size=p0.n, rules=p0.rules, depth=depth,
                  budget=budget, turns=turns, graph=graph, accuracy=accuracy, marks=marks,
                  nodes=nodes)


# --- the analysis board ----------------------------------------------------------------


def analyse(start: str, tokens: list[str], line: list[str], *, depth: int = ANALYSIS_DEPTH,
            budget: int = ANALYSIS_BUDGET) -> dict[str, Any]:
    """From the position after ``tokens`` (a game's first turns), play the trial turns of
    ``line`` (each checked; EngineError names a bad one by its index in ``at``). Returns the
    position reached (notation), the last trial turn reviewed against CargoBot's best
    (None without one) and CargoBot's suggestion there (None when the shift is over)."""
    if len(line) > MAX_LINE:
        raise EngineError(f"a line of at most {MAX_LINE} trial turns, not {len(line)}")
    p = _replay(start, tokens)[-1][0]
    last: TurnReview | None = None
    for i, token in enumerate(line):
        if p.is_over():
            raise EngineError("the shift is over: no more turns to try", at=i)
        try:
            action, unload = interpret_turn(token, p)
        except EngineError as e:
            raise e.with_at(i) from None
        if i == len(line) - 1:
            last = review_turn(p, action, unload, ply=len(tokens) + i, depth=depth,
                               budget=budget)
        p.play(action, unload)
    suggestion: dict[str, Any] | None = None
    if not p.is_over():
        score = score_turn(p, sorted(p.actions())[0], 0, depth=depth, budget=budget)
        value = margin(score.best)
        suggestion = {"token": turn_token(score.best_action, score.best_unload, p),
                      "value": value, "side": SIDE_NAMES[p.side],
                      "words": phrase(score.best_action, p, doing=True)}
    return {"position": p, "last": asdict(last) if last else None, "suggestion": suggestion}
