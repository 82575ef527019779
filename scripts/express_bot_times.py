"""Cargo Express bot decision times through the kind, as the Celery worker asks for them.

    .venv/bin/python scripts/express_bot_times.py --games 10 --seats 4 --cpu 0

Plays `--games` games of `--seats` through the kind (`games.kinds.cargo_express`), every
decision by `--play`'s level (Hard by default: the positions of Hard's own games), and at each
decision point times every level of `--levels` on the same position exactly as the worker's
task does it (games.botplay.bot_games.play_bot_turn): `kind.bot_decision(lg.redacted(seat), seat,
level, seed)`, the seat's view built and the decision chosen. Planning's simultaneous seats
are each a decision point. The levels are timed in a rotating order, so that none always runs
first on a position. CPU time is `time.process_time` (this process alone; `--cpu N` pins it to
core N first, as one worker process is one core); the wall time is printed beside it, and the
load average before and after, since another process on the same core stretches the wall
time and, through shared caches, the CPU time a little.

The kind draws each game's secret seed from `secrets`; the script fixes it to `--seed + g`
for game g so that a run repeats (the bots are deterministic given the seed).

Prints, per level: decisions, median / p95 / max CPU ms, max wall ms, and per decision kind
(pick, plan, turn, swap) the median and max; then the slowest decision of each level with its
game seed, ply and seat, to time again alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.kinds import cargo_express  # noqa: E402  (after the path)

KINDS = {"c": "pick", "p": "plan", "a": "turn", "r": "swap"}


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))]


def new_game(seats: int, seed: int) -> cargo_express.ExpressGame:
    kind = cargo_express.CARGO_EXPRESS
    with mock.patch.object(cargo_express, "secrets", SimpleNamespace(randbits=lambda _: seed)):
        start = kind.new({}, seats, kind.rules_version)
    game = kind.resume(start, [], [])
    assert isinstance(game, cargo_express.ExpressGame)
    return game


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seats", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--play", default="hard", help="the level whose decisions are played")
    ap.add_argument("--levels", default="easy,medium,hard", help="the levels timed")
    ap.add_argument("--cpu", type=int, default=None, help="pin this process to one core")
    args = ap.parse_args()
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    kind = cargo_express.CARGO_EXPRESS
    levels = args.levels.split(",")
    if args.play not in levels:
        levels.append(args.play)
    cpu: dict[str, list[float]] = {level: [] for level in levels}
    wall: dict[str, list[float]] = {level: [] for level in levels}
    by_kind: dict[tuple[str, str], list[float]] = {}
    slowest: dict[str, tuple[float, int, int, int, str]] = {}
    print(f"load average before: {' '.join(open('/proc/loadavg').read().split()[:3])}; "
          f"{args.games} games of {args.seats}, played by {args.play}, seeds "
          f"{args.seed}..{args.seed + args.games - 1}, affinity {sorted(os.sched_getaffinity(0))}",
          flush=True)
    started = time.perf_counter()
    points = 0
    for g in range(args.games):
        seed = args.seed + g
        lg = new_game(args.seats, seed)
        while not lg.over:
            seat = lg.acting()[0]
            what = KINDS[lg.p.phase]
            chosen = {}
            order = levels[points % len(levels):] + levels[:points % len(levels)]
            for level in order:
                c0, w0 = time.process_time(), time.perf_counter()
                token = kind.bot_decision(lg.redacted(seat), seat, level, seed)
                c = time.process_time() - c0
                w = time.perf_counter() - w0
                chosen[level] = token
                cpu[level].append(c)
                wall[level].append(w)
                by_kind.setdefault((level, what), []).append(c)
                if c > slowest.get(level, (0.0,))[0]:
                    slowest[level] = (c, seed, lg.ply, seat, what)
            points += 1
            lg.apply(seat, chosen[args.play])
        print(f"game {g + 1}/{args.games} (seed {seed}): {lg.ply} decisions, "
              f"{time.perf_counter() - started:.0f} s so far", flush=True)
    print(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}")
    ms = 1000
    print(f"\n{'level':8} {'decisions':>9} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} "
          f"{'max wall ms':>11}   by kind: median / max ms")
    for level in levels:
        kinds = "  ".join(
            f"{what} {statistics.median(v) * ms:.1f}/{max(v) * ms:.0f} ({len(v)})"
            for what in KINDS.values() if (v := by_kind.get((level, what))))
        print(f"{level:8} {len(cpu[level]):9d} {statistics.median(cpu[level]) * ms:10.2f} "
              f"{percentile(cpu[level], 95) * ms:8.1f} {max(cpu[level]) * ms:8.1f} "
              f"{max(wall[level]) * ms:11.1f}   {kinds}")
    print()
    for level in levels:
        c, seed, ply, seat, what = slowest[level]
        print(f"slowest {level}: {c * ms:.1f} ms CPU, game seed {seed}, ply {ply}, seat {seat} "
              f"({what})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
