"""The game review: which turns of a finished shift cost points, by how much, and why.

Pure engine work (standard library only). For every turn of a game, CargoBot Hard's
search (:func:`engine.bot.score_turn`, with a deeper budget than in play, counted in nodes
so that a review is the same on every machine) scores the turn played and its own best
turn from the mover's side, in centipoints of final margin. A turn that lost at least a
threshold is marked, and each mark gets a reason built only from facts the engine checks on
the board: what the turn played let the opponent unload next turn, an AppCon of one's own
that a card destroyed, an AppCon left on the bay that the opponent could then break, or the
unload the suggested turn would have made. When none of these explains the loss, the reason
gives the two searched margins and the suggested turn, which the analysis board can replay.

API
---
``review_game(start, tokens, *, depth, budget, progress) -> Review``
    ``start`` is a position in notation, ``tokens`` the turns played. ``progress(done,
    total)`` is called after each turn. ``Review.as_dict()`` is JSON-ready.
``analyse(start, tokens, line) -> dict``
    The analysis board: the game's first turns (``tokens``), then the player's own trial
    turns (``line``, each checked by the engine); the last trial turn scored against
    CargoBot's best and CargoBot's suggestion for the position reached.
``review_puzzle(start, goal, limit, tokens) -> PuzzleReview``
    A finished Weekly Puzzle attempt, by the exact solver (engine.solver) instead of the
    search: the turn after which the goal can no longer be met in the turns left is marked,
    with its reason and boards (see the section "puzzle attempts" below).

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
from engine.game import Game
from engine.geometry import SHAPE_ORDER, AppConMask
from engine.notation import Goal, action_token, interpret_turn, parse_position, turn_token
from engine.position import (
    DAMAGE,
    LOCK,
    NO_CELL,
    NO_LOCK,
    PASS,
    PURGE,
    REROUTE,
    ROTATE_LEFT,
    ROTATE_RIGHT,
    SHAPE_VALUES,
    SIDE_NAMES,
    Position,
)
from engine.solver import Solution, solve

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

_ARTICLE = {"O": "an", "T": "a", "J": "a", "L": "an", "S": "an", "Z": "a", "I": "an"}


@dataclass(frozen=True)
class Unload:
    """An unload the engine found or made: its shape, cells, points gained and chit."""

    shape: str
    cells: str  # notation, sorted: "c2c3d3d4"
    gained: int  # points scored, with the Gold bonus
    chit: str | None  # "gold", "steel" or None (a repeat)
    action: int  # the Phase 1 action before it

    def spaced(self) -> str:
        return " ".join(self.cells[i:i + 2] for i in range(0, len(self.cells), 2))

    def named(self) -> list[str]:
        return [self.cells[i:i + 2] for i in range(0, len(self.cells), 2)]


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


# --- words -----------------------------------------------------------------------------


def _corridor(p: Position, k: int) -> str:
    name = p.g.corridor_names[k]
    return f"column {name}" if k < p.n else f"row {name}"


def phrase(action: int, p: Position, *, doing: bool = False) -> str:
    """A Phase 1 action in words: "This drop in c" / "Dropping in c" (``doing``),
    "Corridor Purge on row 1", "Re-Routing c4" ..."""
    g = p.g
    if action < ROTATE_LEFT:
        column = g.corridor_names[action]
        return f"Dropping in {column}" if doing else f"This drop in {column}"
    if action == PASS:
        return "Passing" if doing else "This pass"
    if action in (ROTATE_LEFT, ROTATE_RIGHT):
        return f"Station Rotation 90° to the {'left' if action == ROTATE_LEFT else 'right'}"
    if action < PURGE:
        return f"Corridor Lockdown on {_corridor(p, action - LOCK)}"
    if action < REROUTE:
        return f"Corridor Purge on {_corridor(p, action - PURGE)}"
    if action < DAMAGE:
        return f"Re-Routing {g.name(action - REROUTE)}"
    a, b = (action >> 8) & 0xFF, action & 0xFF
    cells = g.name(a) + ("" if b == NO_CELL else " " + g.name(b))
    return f"Cargo Damage on {cells}"


def _card_name(action: int) -> str:
    if action in (ROTATE_LEFT, ROTATE_RIGHT):
        return "Station Rotation"
    if LOCK <= action < PURGE:
        return "Corridor Lockdown"
    if PURGE <= action < REROUTE:
        return "Corridor Purge"
    if REROUTE <= action < DAMAGE:
        return "Re-Routing"
    return "Cargo Damage"


def _points(u: Unload, *, chit_apart: bool) -> str:
    """"for 7", or "for 4 and the Gold chit" (the chit's 2 points named apart)."""
    if chit_apart and u.chit == "gold":
        return f"for {u.gained - 2} and the Gold chit"
    if chit_apart and u.chit == "steel":
        return f"for {u.gained} and the Steel chit"
    return f"for {u.gained}"


def _points_words(centipoints: int) -> str:
    """A number of points in words: "2.4 points", "1 point", "half a point"."""
    points = round(abs(centipoints) / 100, 1)
    if points == 0.5:
        return "half a point"
    text = f"{points:.1f}".removesuffix(".0")
    return f"{text} point" if text == "1" else f"{text} points"


def _margin_words(centipoints: int) -> str:
    """A final margin from the mover's side in words: "finish 2.5 points ahead", "finish
    level" (within a tenth of a point), "finish 0.1 points behind"."""
    if abs(centipoints) < 10:
        return "finish level"
    return f"finish {_points_words(centipoints)} {'ahead' if centipoints > 0 else 'behind'}"


# --- facts -----------------------------------------------------------------------------


def _after(p: Position, action: int, unload: int) -> Position:
    q = p.copy()
    q.play(action, unload)
    return q


def _unload_made(p: Position, action: int, unload: int) -> Unload | None:
    """What the turn (action, unload) unloads in p, or None."""
    if not unload:
        return None
    q = p.copy()
    events: list[dict[str, Any]] = []
    q.apply_action(action)
    q.apply_unload(unload, events)
    e = events[-1]
    return Unload(e["shape"], e["cells"], e["gained"], e["chit"], action)


def best_unload_now(p: Position) -> Unload | None:
    """The most points the side to move can unload this turn (any action, then the best
    AppCon); ties go to the first action in integer order, then the AppCon in notation
    order."""
    best: Unload | None = None
    side = p.side
    for action in sorted(p.actions()):
        q = p.copy()
        q.apply_action(action)
        for a in q.appcons(side):
            u = _unload_made(p, action, a.mask)
            if u is not None and (best is None or u.gained > best.gained):
                best = u
    return best


def _still_there(q: Position, side: int, appcon: AppConMask) -> bool:
    return q.cores[side] & appcon.mask == appcon.mask


def _broken_own(p: Position, action: int) -> AppConMask | None:
    """An AppCon of the mover on the bay before the Phase 1 card play and gone after it."""
    if action < ROTATE_LEFT or action == PASS:
        return None
    me = p.side
    q = p.copy()
    q.apply_action(action)
    left = {a.shape for a in q.appcons(me)}
    for a in p.appcons(me):
        if action in (ROTATE_LEFT, ROTATE_RIGHT):
            if a.shape not in left:
                return a
        elif not _still_there(q, me, a):
            return a
    return None


def _breaker(q: Position, victim: int, appcon: AppConMask, hint: int | None) -> int | None:
    """A card play of the side to move in q that breaks the victim's AppCon: ``hint`` (the
    turn actually played next) if it does, else the first in integer order."""
    candidates = sorted(a for a in q.actions() if a >= ROTATE_LEFT and a != PASS)
    if hint is not None and hint in candidates:
        candidates.remove(hint)
        candidates.insert(0, hint)
    for action in candidates:
        r = q.copy()
        r.apply_action(action)
        if action in (ROTATE_LEFT, ROTATE_RIGHT):
            if appcon.shape not in {a.shape for a in r.appcons(victim)}:
                return action
        elif not _still_there(r, victim, appcon):
            return action
    return None


@dataclass(frozen=True)
class _Reason:
    weight: int  # points the fact explains
    text: str
    cells: list[str]


def explain(p: Position, action: int, unload: int, best_action: int, best_unload: int,
            *, played_value: int, best_value: int, depth: int,
            next_action: int | None = None) -> tuple[str, list[str]]:
    """The reason a turn lost points, from facts the engine checks, and the cells it names.

    ``next_action`` is the opponent's Phase 1 action actually played next, if any.
    """
    me = p.side
    op = me ^ 1
    opp = SIDE_NAMES[op].title()
    played = _after(p, action, unload)
    better = _after(p, best_action, best_unload)
    reasons: list[_Reason] = []

    # A card play that destroyed an AppCon of one's own.
    broken = _broken_own(p, action)
    if broken is not None and _broken_own(p, best_action) is None:
        shape = SHAPE_ORDER[broken.shape]
        how = "broke up" if action in (ROTATE_LEFT, ROTATE_RIGHT) else "destroyed"
        cells = [p.g.name(c) for c in broken.cells]
        reasons.append(_Reason(SHAPE_VALUES[broken.shape] + 2,
                               f"{phrase(action, p)} {how} your own {shape} ({' '.join(cells)}).",
                               cells))

    mine_now = _unload_made(p, action, unload)
    mine_best = _unload_made(p, best_action, best_unload)

    # An AppCon held on the bay that the opponent could then break.
    if mine_best is not None and (mine_now is None or mine_now.gained < mine_best.gained):
        held = next((a for a in p.appcons(me)
                     if p.g.names(a.mask) == mine_best.cells), None)
        if held is not None and _still_there(played, me, held):
            breaker = _breaker(played, me, held, next_action)
            if breaker is not None:
                cells = mine_best.named()
                card = _card_name(breaker)
                word = "a" if card[0] not in "AEIOU" else "an"
                who = f"{opp}'s {card}" if breaker == next_action else f"{word} {card} of {opp}'s"
                reasons.append(_Reason(
                    mine_best.gained,
                    f"Holding the {mine_best.shape} ({mine_best.spaced()}) for later let "
                    f"{who} break it ({action_token(breaker, played)}).", cells))

    # What the opponent can unload next turn, after the turn played and after the best.
    theirs_now = best_unload_now(played) if not played.is_over() else None
    theirs_best = best_unload_now(better) if not better.is_over() else None
    if theirs_now is not None:
        held_to = theirs_best.gained if theirs_best is not None else 0
        if theirs_now.gained - held_to >= 2:
            after = (f"{phrase(best_action, p, doing=True)} instead leaves {opp} "
                     + ("nothing to unload" if theirs_best is None
                        else f"at most {theirs_best.gained}")
                     + f" ({turn_token(best_action, best_unload, p)})")
            shape = theirs_now.shape
            reasons.append(_Reason(
                theirs_now.gained - held_to,
                f"{phrase(action, p)} let {opp} unload {_ARTICLE[shape]} {shape} "
                f"({theirs_now.spaced()}) {_points(theirs_now, chit_apart=False)} next turn; "
                f"{after}.", theirs_now.named()))

    # The unload the best turn would have made.
    if mine_best is not None:
        took = mine_now.gained if mine_now is not None else 0
        if mine_best.gained - took >= 2:
            created = not any(p.g.names(a.mask) == mine_best.cells for a in p.appcons(me))
            what = f"your {mine_best.shape} ({mine_best.spaced()})"
            if created:
                text = (f"{phrase(best_action, p, doing=True)} would have completed {what} "
                        f"{_points(mine_best, chit_apart=True)}")
            else:
                text = (f"Unloading {what} this turn would have scored "
                        f"{_points(mine_best, chit_apart=True).removeprefix('for ')}")
            text += f" ({turn_token(best_action, best_unload, p)})"
            if mine_now is not None:
                text += f"; the turn played took {mine_now.gained} for the {mine_now.shape}"
            reasons.append(_Reason(mine_best.gained - took, text + ".", mine_best.named()))

    if reasons:
        top = max(reasons, key=lambda r: r.weight)  # max keeps the first of equal weights
        return top.text, top.cells
    line_reason = _line_reason(p, played, better, best_action, best_unload)
    if line_reason is not None:
        return line_reason.text, line_reason.cells
    best_token = turn_token(best_action, best_unload, p)
    return (f"{phrase(best_action, p, doing=True)} instead ({best_token}) is worth about "
            f"{_points_words(best_value - played_value)} more to you by the Final Audit: "
            f"looking {depth} turns ahead, CargoBot expects you to "
            f"{_margin_words(best_value)} after it, and to {_margin_words(played_value)} "
            "after the turn played. No single unload in the next turns makes the difference; "
            "it is the position: try both on the analysis board.", [])


LINE_PLIES = 4  # the expected line after a turn: the reply, ours, the reply, ours
LINE_DEPTH = 4
LINE_BUDGET = 8_000


def expected_line(q: Position, plies: int = LINE_PLIES) -> list[tuple[str, int, Unload | None]]:
    """CargoBot's expected continuation from q: (token, side, unload made) per turn, each
    chosen by a small fixed search (deterministic)."""
    out: list[tuple[str, int, Unload | None]] = []
    r = q.copy()
    for _ in range(plies):
        if r.is_over():
            break
        score = score_turn(r, sorted(r.actions())[0], 0, depth=LINE_DEPTH, budget=LINE_BUDGET)
        a, m = score.best_action, score.best_unload
        out.append((turn_token(a, m, r), r.side, _unload_made(r, a, m)))
        r.play(a, m)
    return out


def _line_reason(p: Position, played: Position, better: Position, best_action: int,
                 best_unload: int) -> _Reason | None:
    """A reason from the expected lines after the turn played and after the best turn: an
    unload one of them holds that the other does not."""
    me = p.side
    op = me ^ 1
    opp = SIDE_NAMES[op].title()
    best_token = turn_token(best_action, best_unload, p)
    after_played = expected_line(played)
    after_best = [(best_token, me, _unload_made(p, best_action, best_unload))]
    after_best += expected_line(better, LINE_PLIES - 1)

    def gains(line: list[tuple[str, int, Unload | None]], side: int) -> int:
        return sum(u.gained for _, s, u in line if s == side and u is not None)

    def tokens(line: list[tuple[str, int, Unload | None]]) -> str:
        return " ".join(t for t, _, _ in line)

    their_extra = gains(after_played, op) - gains(after_best, op)
    my_extra = gains(after_best, me) - gains(after_played, me)
    if their_extra >= 2 and their_extra >= my_extra:
        k, (_, _, u) = next((i, t) for i, t in enumerate(after_played)
                            if t[1] == op and t[2] is not None)
        assert u is not None
        return _Reason(their_extra,
                       f"After the turn played, CargoBot's expected line ({tokens(after_played)}) "
                       f"lets {opp} unload {_ARTICLE[u.shape]} {u.shape} ({u.spaced()}) "
                       f"{_points(u, chit_apart=False)} {_when(k)}; after {best_token} its "
                       f"line ({tokens(after_best)}) gives {opp} {gains(after_best, op)}.",
                       u.named())
    if my_extra >= 2:
        k, (_, _, u) = next((i, t) for i, t in enumerate(after_best)
                            if t[1] == me and t[2] is not None)
        assert u is not None
        return _Reason(my_extra,
                       f"{phrase(best_action, p, doing=True)} ({best_token}) leads, in "
                       f"CargoBot's expected line ({tokens(after_best)}), to your unloading "
                       f"{_ARTICLE[u.shape]} {u.shape} ({u.spaced()}) "
                       f"{_points(u, chit_apart=True)} {_when(k, own=True)}; after the turn "
                       f"played its line ({tokens(after_played)}) gives you "
                       f"{gains(after_played, me)}.", u.named())
    return None


def _when(k: int, own: bool = False) -> str:
    """The turn of the line, counted from the reply (own: counted from the suggestion)."""
    if own:
        return "this turn" if k == 0 else "next turn" if k == 2 else f"in {k // 2 + 1} turns"
    return "next turn" if k == 0 else f"in {k // 2 + 1} of its turns"


# --- the review ------------------------------------------------------------------------


def _lock(p: Position) -> str | None:
    return None if p.lock == NO_LOCK else p.g.corridor_names[p.lock]


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
        played = _after(p, action, unload)
        better = _after(p, best_action, best_unload)
        turn.before, turn.before_lock = rows(p), _lock(p)
        turn.after_played, turn.played_lock = rows(played), _lock(played)
        turn.after_best, turn.best_lock = rows(better), _lock(better)
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


# --- puzzle attempts ---------------------------------------------------------------------
#
# A Weekly Puzzle has no opponent and one question: can the goal still be met in the turns
# left? The exact solver (engine.solver) answers it before and after every turn of an
# attempt, so the review of an attempt is proven rather than searched: a turn is marked
# (a "blunder") when the goal could be met in time before it and cannot after it. Its reason
# names the fact on the board when one applies (a card that destroyed one's own AppCon, the
# unload the solver's turn makes now), then the proof (the solver searched every line in the
# turns left) and the solver's line from before the turn.

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
        return f"unload {_ARTICLE[shape]} {shape}"
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
    broken = _broken_own(p, action)
    mine_now = _unload_made(p, action, unload)
    mine_best = _unload_made(p, best_action, best_unload)
    if broken is not None and _broken_own(p, best_action) is None:
        how = "broke up" if action in (ROTATE_LEFT, ROTATE_RIGHT) else "destroyed"
        cells = [p.g.name(c) for c in broken.cells]
        fact = (f"{phrase(action, p)} {how} your own {SHAPE_ORDER[broken.shape]} "
                f"({' '.join(cells)}). ")
    elif mine_best is not None and (mine_now is None or mine_now.cells != mine_best.cells):
        cells = mine_best.named()
        created = not any(p.g.names(a.mask) == mine_best.cells for a in p.appcons(p.side))
        what = f"your {mine_best.shape} ({mine_best.spaced()})"
        met = "and met the goal" if fewest == 1 else _points(mine_best, chit_apart=True)
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
            turn.before, turn.before_lock = rows(p), _lock(p)
            turn.after_played, turn.played_lock = rows(played), _lock(played)
            turn.after_best, turn.best_lock = rows(better), _lock(better)
        turns.append(turn)
        before = after
    if not game.over:
        raise EngineError("the attempt is not over: it is reviewed once solved or out of turns")
    return PuzzleReview(version=PUZZLE_REVIEW_VERSION, size=start.n, rules=start.rules,
                        goal=str(goal), limit=limit,
                        outcome="solved" if game.solved else "out_of_turns", turns=turns,
                        lost_at=lost_at, nodes=nodes)
