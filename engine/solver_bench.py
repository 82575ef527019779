"""``python -m engine.solver_bench``: time the solver on seeded shift-like puzzles.

Each case is a random shift in progress (engine.generator.random_shift) made a puzzle with
the given hand and a goal of each kind, drawn so that about half are solvable; every
goal kind is measured. Prints one line per size with the median, the 90th percentile and
the slowest wall time, the slowest CPU time of one case (what a busy machine does not
inflate), and the slowest puzzle's record.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.generator import _record, puzzle_start, random_shift
from engine.notation import Goal
from engine.solver import solve


def cases(n: int, turns: int, count: int, seed: int, hand: int = 31) -> list[str]:
    rng = random.Random(f"bench:{n}:{turns}:{seed}")
    out = []
    for i in range(count):
        start = puzzle_start(rng, random_shift(rng, n), hand)
        kind = ("unload", "score", "appcons")[i % 3]
        if kind == "unload":
            goal = Goal("unload", shape=rng.randrange(7))
        elif kind == "score":
            goal = Goal("score", amount=rng.randint(2 * turns + 4, 7 * turns))
        else:
            goal = Goal("appcons", amount=rng.randint(min(2, turns), turns))
        out.append(_record(start, goal, turns))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m engine.solver_bench")
    ap.add_argument("--size", type=int, default=8)
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hand", type=int, default=31, help="Blue's hand as a bit mask (31: all)")
    args = ap.parse_args()
    times, cpus, slow, solvable, hard = [], [], ("", 0.0), 0, []
    fewest: dict[object, int] = {}
    for text in cases(args.size, args.turns, args.count, args.seed, args.hand):
        began, cpu = time.perf_counter(), time.process_time()
        sol = solve(text)
        took = time.perf_counter() - began
        times.append(took)
        cpus.append(time.process_time() - cpu)
        solvable += sol.solvable
        fewest[sol.fewest] = fewest.get(sol.fewest, 0) + 1
        if sol.fewest == args.turns:
            hard.append(took)
        if took > slow[1]:
            slow = (text, took)
    times.sort()
    p90 = times[int(0.9 * (len(times) - 1))]
    print(f"{args.size}x{args.size} turns={args.turns} hand={args.hand} n={len(times)} "
          f"solvable={solvable} median={statistics.median(times):.3f}s p90={p90:.3f}s "
          f"max={times[-1]:.3f}s cpu_max={max(cpus):.3f}s "
          f"fewest={sorted(fewest.items(), key=str)}")
    if hard:
        hard.sort()
        print(f"  of which {len(hard)} need exactly {args.turns} turns: "
              f"median={statistics.median(hard):.3f}s max={hard[-1]:.3f}s")
    print("slowest:", slow[0].replace("\n", " "))


if __name__ == "__main__":
    main()
