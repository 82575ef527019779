"""``python -m express bench``: seeded random games, timed, for comparable speed figures.

Policy: every decision is drawn uniformly from the full ``legal`` list of the position
(:func:`express.moves.legal`, the same list the CLI prints); a plan, for which ``legal``
is empty, is three different cards drawn uniformly from the nine. The decision is then
checked and applied by :func:`express.moves.play` without events. Generation, checking
and applying are all inside the timed loop. A "turn" is one turn of the action phase
(3n per round); picks, plans and swaps are played but not counted as turns.
"""

from __future__ import annotations

import random
import time

from express.moves import legal, play
from express.position import start_position
from express.rules import CARDS


def play_random_game(rng: random.Random, players: int) -> tuple[int, int]:
    """Play one game by the bench policy; return (rounds, turns)."""
    p = start_position(players, rng.getrandbits(64))
    rand = rng.random
    turns = 0
    while p.phase != "o":
        if p.phase == "p":
            for seat in p.to_move():
                play(p, "".join(rng.sample(CARDS, 3)), seat)
            continue
        options = legal(p)
        if p.phase == "a":
            turns += 1
        play(p, options[int(rand() * len(options))])
    return p.round, turns


def run_bench(seconds: float = 5.0, seed: int = 1, players: int = 4) -> dict[str, float]:
    """Play games for about ``seconds``; return rounds/s, turns/s and the totals."""
    rng = random.Random(seed)
    rounds = turns = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        r, t = play_random_game(rng, players)
        rounds += r
        turns += t
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {"rounds/s": round(rounds / elapsed, 1), "turns/s": round(turns / elapsed, 1),
            "games": games, "turns": turns, "seconds": round(elapsed, 2), "players": players}
