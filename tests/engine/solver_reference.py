"""A plain breadth-first puzzle search over engine Positions, without any pruning.

The reference the exact solver is checked against: it knows nothing of bitboard tricks,
bounds or dominance, only Position.actions(), appcons(), play() and the goal of rules.md 24.
"""

from __future__ import annotations

from engine.notation import Goal
from engine.position import BLUE, Position


def bfs_fewest(start: Position, goal: Goal, limit: int, cards: bool = True) -> int | None:
    """The fewest turns (at most limit) that solve the puzzle, or None."""
    p0 = start.copy()
    p0.solo = True
    if not cards:
        p0.cards[BLUE] = 0
    base = p0.points[BLUE]
    frontier = {(p0.key(), 0): p0}
    for turn in range(1, limit + 1):
        nxt: dict[tuple, Position] = {}
        for (_, unloaded), p in frontier.items():
            if p.is_over():
                continue
            for action in p.actions():
                q = p.copy()
                q.apply_action(action)
                options = [0] + [a.mask for a in q.appcons(BLUE)]
                for mask in options:
                    r = q.copy()
                    count = unloaded
                    if mask:
                        shape = r.g.appcon_by_mask[mask].shape
                        r.apply_unload(mask)
                        count += 1
                        if goal.kind == "unload" and shape == goal.shape:
                            return turn
                        if goal.kind == "score" and r.points[BLUE] - base >= goal.amount:
                            return turn
                        if goal.kind == "appcons" and count >= goal.amount:
                            return turn
                    r.turns += 1
                    nxt[(r.key(), count)] = r
        frontier = nxt
    return None
