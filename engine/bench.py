"""``python -m engine bench``: seeded random games, timed, for comparable speed figures.

Policy (issue 3): each turn takes a uniformly random action from the full list of legal
Phase 1 actions, then unloads the first available AppCon (the smallest cell list in the
notation's order) if there is one. Move generation, unload search and turn application
are all inside the timed loop.
"""

from __future__ import annotations

import random
import time

from engine.position import CURRENT_RULES, Position


def play_random_game(rng: random.Random, size: int = 8, rules: str = CURRENT_RULES) -> int:
    """Play one game by the bench policy; return the number of turns."""
    p = Position(size, rules)
    rand = rng.random
    turns = 0
    while True:
        acts = p.actions()
        if not acts:
            return turns
        p.apply_action(acts[int(rand() * len(acts))])
        found = p.appcons(p.side)
        if found:
            p.apply_unload(found[0].mask)
        p.turns += 1
        p.side ^= 1
        turns += 1


def run_bench(seconds: float = 10.0, seed: int = 1, size: int = 8,
              rules: str = CURRENT_RULES) -> tuple[float, float]:
    """Play games for about ``seconds``; return (turns per second, games per second)."""
    rng = random.Random(seed)
    turns = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        turns += play_random_game(rng, size, rules)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return turns / elapsed, games / elapsed
