"""The figures docs/ratings.md gives for the multiplayer rating (rankings.multiplayer): its
scale, and how many games a new player's rating stays provisional, among a pool of 12 new
players meeting at tables of 2, 3 and 4 seats with random places (ties allowed), 200 runs
each. Run: `.venv/bin/python -m rankings.multiplayer_figures`. Pure; no Django."""

from __future__ import annotations

import random
import statistics

from . import multiplayer as m


def games_to_settle(seats: int, runs: int = 200, pool_size: int = 12) -> list[int]:
    counts: list[int] = []
    for run in range(runs):
        rnd = random.Random(run)
        pool = [m.START] * pool_size
        games = [0] * pool_size
        done: dict[int, int] = {}
        while len(done) < pool_size:
            table = rnd.sample(range(pool_size), seats)
            places = [rnd.randint(1, seats) for _ in table]
            for i, skill in zip(table, m.rate([pool[i] for i in table], places), strict=True):
                pool[i] = skill
                games[i] += 1
                if i not in done and not m.provisional(skill.sigma):
                    done[i] = games[i]
        counts += done.values()
    return sorted(counts)


def main() -> None:
    print(f"scale {m.SCALE:.3f} points per unit of mu; provisional above sigma "
          f"{m.PROVISIONAL_SIGMA:.3f} (start {m.START_SIGMA:.3f})")
    for seats in (2, 3, 4):
        counts = games_to_settle(seats)
        first = m.rate([m.START] * seats, list(range(1, seats + 1)))
        print(f"{seats} seats: provisional for a median {statistics.median(counts)} games "
              f"(10%-90%: {counts[len(counts) // 10]}-{counts[9 * len(counts) // 10]}); "
              "a first game from 1200, by place: "
              + ", ".join(f"{m.displayed(s.mu) - 1200:+d}" for s in first))


if __name__ == "__main__":
    main()
