"""``python -m engine solve|generate|week``: the puzzle commands (notation.md).

Kept light: the solver and generator are imported only when a command runs.
"""

from __future__ import annotations

import argparse
from typing import Any


def cmd_solve(args: argparse.Namespace) -> Any:
    from engine.cli import _read_input
    from engine.solver import solve

    return solve(_read_input(args.file)).as_dict()


def cmd_generate(args: argparse.Namespace) -> Any:
    from engine.generator import generate_records

    for text in generate_records(size=args.size, turns=args.turns, goal=args.goal,
                                 needs_card=args.needs_card, seed=args.seed, count=args.count):
        print(text)
    return None


def cmd_week(args: argparse.Namespace) -> Any:
    from engine.generator import week_records

    for text in week_records(args.monday, args.seed):
        print(text)
    return None


def add_commands(sub: Any) -> None:
    p = sub.add_parser("solve", help="solve a puzzle record: fewest turns, a line, needs_card")
    p.add_argument("file", nargs="?")
    p.set_defaults(run=cmd_solve)
    p = sub.add_parser("generate", help="generate puzzle records, each proven valid")
    p.add_argument("--size", type=int, required=True, choices=range(5, 9), metavar="N")
    p.add_argument("--turns", type=int, required=True, choices=range(1, 5), metavar="T")
    p.add_argument("--goal", required=True, choices=("unload", "score", "appcons"))
    p.add_argument("--needs-card", action="store_true")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=1)
    p.set_defaults(run=cmd_generate)
    p = sub.add_parser("week", help="the seven puzzles of a week, Monday to Sunday")
    p.add_argument("--monday", required=True, help="the week's Monday, YYYY-MM-DD")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=cmd_week)
