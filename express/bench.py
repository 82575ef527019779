"""``python -m express bench``: seeded random games, timed, for comparable speed figures.

Policy: every decision is drawn uniformly from the full ``legal`` list of the position
(:func:`express.legal_decisions.legal`, the same list the CLI prints); a plan, for which
``legal`` is empty, is three different cards drawn uniformly from the nine. The decision
is then checked and applied by :func:`express.moves.play` without events. Generation, checking
and applying are all inside the timed loop, timed in CPU seconds of the process. A "turn"
is one turn of the action phase (3n per round); picks, plans and swaps are played but
not counted as turns.
"""

from __future__ import annotations

import random
import time

from express.fast import playout, uniform_plan, usable_plan
from express.legal_decisions import legal
from express.moves import play
from express.position import start_position
from express.rules import CARD_CLASS, CARDS, CURRENT_RULES


def play_random_game(rng: random.Random, players: int, usable: bool = False,
                     rules: str = CURRENT_RULES) -> tuple[int, int]:
    """Play one game by the bench policy; return (rounds, turns).

    With ``usable``, plans are drawn from the cards the engine can use when planning
    (at least three always are), so far fewer turns are lost: the harder, truer figure.
    """
    p = start_position(players, rng.getrandbits(64), rules)
    rand = rng.random
    turns = 0
    while p.phase != "o":
        if p.phase == "p":
            for seat in p.to_move():
                hand = [c for c in CARDS if CARD_CLASS[c] <= p.engine[seat - 1]] if usable \
                    else CARDS
                play(p, "".join(rng.sample(hand, 3)), seat)
            continue
        options = legal(p)
        if p.phase == "a":
            turns += 1
        play(p, options[int(rand() * len(options))])
    return p.round, turns


def play_fast_game(rng: random.Random, players: int, usable: bool = True,
                   rules: str = CURRENT_RULES) -> tuple[int, int]:
    """One game of :func:`express.fast.playout` (the bots' random playouts); (rounds, turns).

    Plans as in :func:`play_random_game`: three of the nine cards, or of the usable ones.
    """
    p = start_position(players, rng.getrandbits(64), rules)
    playout(p, rng, usable_plan if usable else uniform_plan)
    return p.round, 3 * players * p.round


def run_bench(seconds: float = 5.0, seed: int = 1, players: int = 4,
              usable: bool = False, fast: bool = False,
              rules: str = CURRENT_RULES) -> dict[str, float | str]:
    """Play games for about ``seconds`` of CPU time; return rounds/s, turns/s and totals.

    The rates are per CPU second of this process (``time.process_time``), the one-core
    figure even on a shared machine; ``seconds`` is the wall time, for comparison.
    ``fast`` times :func:`express.fast.playout` instead of the legal-list policy;
    ``rules`` is the rules version the games play.
    """
    rng = random.Random(seed)
    rounds = turns = games = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    deadline = start_cpu + seconds
    while True:
        r, t = play_fast_game(rng, players, usable, rules) if fast else \
            play_random_game(rng, players, usable, rules)
        rounds += r
        turns += t
        games += 1
        now = time.process_time()
        if now >= deadline:
            break
    cpu = now - start_cpu
    return {"rounds/s": round(rounds / cpu, 1), "turns/s": round(turns / cpu, 1),
            "games": games, "turns": turns, "cpu_seconds": round(cpu, 2),
            "seconds": round(time.perf_counter() - start, 2), "players": players,
            "policy": "fast" if fast else "legal", "plans": "usable" if usable else "uniform",
            "rules": rules}
