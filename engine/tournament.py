"""``python -m engine tournament``: CargoBot levels against each other and a random player.

Each pairing ``A-B`` plays ``--games`` shifts on each ``--sizes`` bay. Games come in pairs
that share an opening (``--opening`` random drops, from the game's seed) with colours
swapped, so neither side profits from moving first and the deterministic levels do not
replay one game a hundred times. Each bot gets the game's seed. ``random`` is a uniformly
random legal player: a uniformly random Phase 1 action, then a uniformly random choice
among not unloading and each AppCon it could unload.

Prints, per pairing and size, A's wins with a 95% Wilson interval, and per level and size
the seconds per move (median, max). Times are wall-clock seconds of ``choose``; the
bots' turns never depend on them. CPU seconds (``time.process_time``) are also shown:
on a machine shared with other work they are the fairer one-core figure.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine.position import BLUE, CURRENT_RULES, Position

PLAYERS = ("random", "easy", "medium", "hard")
DEFAULT_PAIRINGS = ("easy-random", "medium-easy", "hard-medium")


@dataclass
class GameResult:
    pairing: str
    size: int
    index: int
    a_won: bool
    margin: int  # A's final score minus B's
    turns: int
    times: dict[str, list[float]] = field(default_factory=dict)  # wall-clock s per move
    cpu: dict[str, list[float]] = field(default_factory=dict)  # process CPU s per move


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    phat = wins / n
    den = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / den
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def _random_turn(p: Position, rng: random.Random) -> tuple[int, int]:
    acts = p.actions()
    action = acts[rng.randrange(len(acts))]
    after = p.copy()
    after.apply_action(action)
    masks = [0] + [a.mask for a in after.appcons(p.side)]
    return action, masks[rng.randrange(len(masks))]


def play_game(pairing: str, size: int, index: int, seed: int, opening: int = 2,
              rules: str = CURRENT_RULES) -> GameResult:
    """Play game ``index`` of a pairing: A is Blue on even indices, Orange on odd ones."""
    from engine.bot import choose

    a, b = pairing.split("-")
    pair_seed = seed * 1_000_003 + (index // 2)
    a_side = BLUE if index % 2 == 0 else 1 - BLUE
    players = {a_side: a, 1 - a_side: b}
    rng = random.Random(pair_seed * 7 + index)  # the random player's own dice
    opening_rng = random.Random(pair_seed)  # the same opening for both games of a pair
    p = Position(size, rules)
    times: dict[str, list[float]] = {a: [], b: []}
    cpu: dict[str, list[float]] = {a: [], b: []}
    for _ in range(opening):
        drops = p.drops()
        if not drops or p.is_over():
            break
        p.play(drops[opening_rng.randrange(len(drops))])
    while not p.is_over():
        who = players[p.side]
        if who == "random":
            action, unload = _random_turn(p, rng)
        else:
            start, start_cpu = time.perf_counter(), time.process_time()
            turn = choose(p, who, pair_seed)
            times[who].append(time.perf_counter() - start)
            cpu[who].append(time.process_time() - start_cpu)
            action, unload = turn.action, turn.unload
        p.play(action, unload)
    audit = p.audit()
    finals = (audit.blue.final, audit.orange.final)
    a_won = audit.winner == ("blue" if a_side == BLUE else "orange")
    return GameResult(pairing, size, index, a_won, finals[a_side] - finals[1 - a_side],
                      p.turns, times, cpu)


def _play(task: tuple[str, int, int, int, int, str]) -> GameResult:
    return play_game(*task)


def run(pairings: Iterable[str], sizes: Iterable[int], games: int, seed: int = 1,
        jobs: int = 1, opening: int = 2, rules: str = CURRENT_RULES,
        progress: bool = False) -> list[GameResult]:
    tasks = [(pr, s, i, seed, opening, rules) for pr in pairings for s in sizes
             for i in range(games)]
    results: list[GameResult] = []
    if jobs <= 1:
        for t in tasks:
            results.append(_play(t))
            if progress:
                _progress(results[-1])
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for r in pool.map(_play, tasks, chunksize=1):
                results.append(r)
                if progress:
                    _progress(r)
    return results


def _progress(r: GameResult) -> None:
    print(f"# {r.pairing} {r.size}x{r.size} game {r.index}: "
          f"{'A' if r.a_won else 'B'} won, margin {r.margin:+d}, {r.turns} turns", flush=True)


def report(results: list[GameResult]) -> str:
    lines = ["| pairing (A-B) | bay | games | A wins | A win rate | 95% CI (Wilson) "
             "| mean margin |",
             "|---|---|---|---|---|---|---|"]
    keys: list[tuple[str, int]] = []
    for r in results:
        if (r.pairing, r.size) not in keys:
            keys.append((r.pairing, r.size))
    for pairing, size in keys:
        rs = [r for r in results if r.pairing == pairing and r.size == size]
        wins = sum(r.a_won for r in rs)
        lo, hi = wilson(wins, len(rs))
        margin = sum(r.margin for r in rs) / len(rs)
        lines.append(f"| {pairing} | {size}×{size} | {len(rs)} | {wins} | "
                     f"{wins / len(rs):.0%} | {lo:.0%}–{hi:.0%} | {margin:+.1f} |")
    lines += ["", "| level | bay | moves | median s/move | max s/move | median CPU s | max CPU s |",
              "|---|---|---|---|---|---|---|"]
    levels = [lv for lv in PLAYERS if lv != "random"]
    sizes = sorted({r.size for r in results})
    for lv in levels:
        for size in sizes:
            ts = [t for r in results if r.size == size for t in r.times.get(lv, [])]
            cs = [t for r in results if r.size == size for t in r.cpu.get(lv, [])]
            if ts:
                lines.append(f"| {lv} | {size}×{size} | {len(ts)} | "
                             f"{statistics.median(ts):.4f} | {max(ts):.3f} | "
                             f"{statistics.median(cs):.4f} | {max(cs):.3f} |")
    return "\n".join(lines)


def check_pairing(text: str) -> str:
    parts = text.split("-")
    if len(parts) != 2 or any(x not in PLAYERS for x in parts):
        from engine.errors import EngineError

        raise EngineError(f"bad pairing {text!r}: write A-B with A, B in {', '.join(PLAYERS)}")
    return text
