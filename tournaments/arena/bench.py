"""Time the arena's pairing pass: ``python -m tournaments.arena.bench [--players 200]``.

Builds seeded random pools of waiting players (ranks spread over three times the pool, three
recent opponents each, colour histories, one in twenty paused) and times ``pairings`` on
each, the wait rule already met. Prints one line per window: the median, 95th percentile
and worst pass in milliseconds. docs/tournaments-arena.md keeps the figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tournaments.arena.pairing import PairingRules, Waiting, pairings


def pool(size: int, rng: random.Random) -> list[Waiting]:
    ranks = rng.sample(range(1, 3 * size + 1), size)
    return [
        Waiting(
            id=i,
            rating=rng.randint(1000, 2400),
            score=rng.randint(0, 40),
            rank=ranks[i],
            free_since=rng.uniform(0.0, 5.0),
            paused=rng.random() < 0.05,
            recent_opponents=tuple(rng.sample(range(size), 3)),
            colours="".join(rng.choice("BO") for _ in range(rng.randint(0, 12))),
        )
        for i in range(size)
    ]


def measure(size: int, window: int, passes: int, seed: int) -> list[float]:
    """The seconds of each pass."""
    rng = random.Random(seed)
    rules = PairingRules(window=window)
    seconds = []
    for _ in range(passes):
        players = pool(size, rng)
        start = time.perf_counter()
        pairings(players, 10.0, rules)
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--passes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--windows", default="4,6,8,10")
    args = parser.parse_args()
    for window in (int(w) for w in args.windows.split(",")):
        ms = sorted(1000 * s for s in measure(args.players, window, args.passes, args.seed))
        p95 = ms[max(0, round(0.95 * len(ms)) - 1)]
        print(
            f"{args.players} waiting, window {window}: median {statistics.median(ms):.1f} ms, "
            f"p95 {p95:.1f} ms, worst {ms[-1]:.1f} ms ({args.passes} passes)"
        )


if __name__ == "__main__":
    main()
