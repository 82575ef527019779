"""``manage.py puzzle_figures``: the Weekly Puzzles' performance figures for docs/puzzles-site.md.

Generates ``--count`` 8×8 puzzles of ``--turns`` turns that need a card (the weekend's kind,
goal kinds in turn) and proves each again from its record text, timing every proof in CPU
time (``time.process_time``, which other jobs on a shared machine do not inflate) and wall
time; prints the slowest proofs. With ``--week`` it also drafts and proves one whole week.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from engine.generator import GOALS, generate, week
from engine.solver import solve


class Command(BaseCommand):
    help = "Time the puzzle generator and the solver (CPU and wall seconds, nodes)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--count", type=int, default=200)
        parser.add_argument("--size", type=int, default=8)
        parser.add_argument("--turns", type=int, default=4)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--week", default="", help="also generate the week of this Monday")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["week"]:
            cpu, wall = time.process_time(), time.perf_counter()
            days = week(options["week"], options["seed"])
            self.stdout.write(
                f"week {options['week']} seed {options['seed']}: generated and proven in "
                f"{time.process_time() - cpu:.2f} s CPU, {time.perf_counter() - wall:.2f} s wall; "
                f"proofs: " + ", ".join(f"{g.solution.nodes} nodes" for _, g in days))
        n, turns, count = options["size"], options["turns"], options["count"]
        rows = []
        cpu0 = time.process_time()
        for i in range(count):
            kind = GOALS[i % 3]
            gen = generate(n, turns, kind, needs_card=True, seed=options["seed"] * 100_000 + i,
                           batch=1)[0]
            c, w = time.process_time(), time.perf_counter()
            sol = solve(gen.record)
            rows.append((time.process_time() - c, time.perf_counter() - w, sol.nodes, kind,
                         gen.record))
        cpu_all = time.process_time() - cpu0
        rows.sort(key=lambda r: r[0])
        cpus = [r[0] for r in rows]
        self.stdout.write(
            f"{count} puzzles {n}x{n} in {turns} turns needing a card, generated and proven "
            f"in {cpu_all:.1f} s CPU; re-proof CPU median {statistics.median(cpus):.3f} s, "
            f"max {cpus[-1]:.3f} s (wall {rows[-1][1]:.3f} s, {rows[-1][2]} nodes, "
            f"{rows[-1][3]}); max nodes {max(r[2] for r in rows)}")
        self.stdout.write("slowest record:\n" + rows[-1][4])
