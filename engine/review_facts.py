"""The facts a review's reasons rest on, each checked by the engine on the board.

Owns what a turn did, not how it is said: the position after a turn, the unload a turn
makes (:class:`Unload`), the most the side to move can unload now, an AppCon of one's own
that a card play destroyed, a card play that breaks an AppCon, CargoBot's expected line
after a turn, and the lock a board is drawn with. Pure engine work (standard library only).

Used by the game review (engine.review), its words (engine.review_words) and the puzzle
review (engine.puzzle_review); it imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.bot import score_turn
from engine.geometry import AppConMask
from engine.notation import turn_token
from engine.position import NO_LOCK, PASS, ROTATE_LEFT, ROTATE_RIGHT, Position

LINE_PLIES = 4  # the expected line after a turn: the reply, ours, the reply, ours
LINE_DEPTH = 4
LINE_BUDGET = 8_000


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


def after_turn(p: Position, action: int, unload: int) -> Position:
    """The position after the turn (action, unload) in p (p itself is unchanged)."""
    q = p.copy()
    q.play(action, unload)
    return q


def unload_made(p: Position, action: int, unload: int) -> Unload | None:
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
            u = unload_made(p, action, a.mask)
            if u is not None and (best is None or u.gained > best.gained):
                best = u
    return best


def still_there(q: Position, side: int, appcon: AppConMask) -> bool:
    """Whether all four cores of the side's AppCon are still on the bay in q."""
    return q.cores[side] & appcon.mask == appcon.mask


def broken_own(p: Position, action: int) -> AppConMask | None:
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
        elif not still_there(q, me, a):
            return a
    return None


def find_breaker(q: Position, victim: int, appcon: AppConMask, hint: int | None) -> int | None:
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
        elif not still_there(r, victim, appcon):
            return action
    return None


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
        out.append((turn_token(a, m, r), r.side, unload_made(r, a, m)))
        r.play(a, m)
    return out


def locked_corridor(p: Position) -> str | None:
    """The name of the corridor under a MagLock in p, or None: drawn with a review's board."""
    return None if p.lock == NO_LOCK else p.g.corridor_names[p.lock]
