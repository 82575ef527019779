"""Measure the game review: the distribution of losses by level, and the CPU time.

``python -m engine.review_bench --pairings hard-hard,medium-hard,easy-hard --sizes 6,8
--games 3 --seed 1`` plays seeded bot-vs-bot games (up to 64 turns), reviews each with the
review's fixed node budget and prints, per level, how many of its turns lost at least
1, 2, 3, 4, 5, 7 and 10 points, the largest loss, and per game the review's CPU time
(``time.process_time``: the machine is shared, so wall time would mislead).
"""

from __future__ import annotations

import argparse
import time

from engine.bot import choose
from engine.notation import format_position, start_position
from engine.review import review_game

CUTS = (100, 200, 300, 400, 500, 700, 1000)


def play(size: int, levels: tuple[str, str], seed: int, turns: int = 64) -> tuple[str, list[str]]:
    p = start_position(size)
    start = format_position(p)
    tokens: list[str] = []
    while not p.is_over() and len(tokens) < turns:
        t = choose(p, levels[len(tokens) % 2], seed)
        tokens.append(t.token)
        p.play(t.action, t.unload)
    return start, tokens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairings", default="hard-hard,medium-hard,easy-hard")
    parser.add_argument("--sizes", default="6,8")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    losses: dict[str, list[int]] = {}
    for pairing in args.pairings.split(","):
        a, b = pairing.split("-")
        for size in (int(s) for s in args.sizes.split(",")):
            for k in range(args.games):
                start, tokens = play(size, (a, b), args.seed + k)
                t0 = time.process_time()
                review = review_game(start, tokens)
                cpu = time.process_time() - t0
                print(f"{pairing} {size}x{size} seed {args.seed + k}: {len(tokens)} turns, "
                      f"{cpu:.1f} s CPU, {review.nodes} nodes, marks {review.marks}", flush=True)
                for t in review.turns:
                    losses.setdefault(a if t.side == "blue" else b, []).append(t.loss)
    for level, values in sorted(losses.items()):
        counts = ", ".join(f">={c // 100}: {sum(v >= c for v in values)}" for c in CUTS)
        print(f"{level}: {len(values)} turns; {counts}; max {max(values) / 100:.2f}")


if __name__ == "__main__":
    main()
