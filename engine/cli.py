"""``python -m engine``: the command line of spec/notation.md.

Every command prints one line of JSON. Bad input exits with status 2 and prints
``{"error": ..., "at": ...}``; nothing is ever printed as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from collections.abc import Sequence
from typing import Any

from engine.errors import EngineError
from engine.game import Game, unloads
from engine.notation import decode, parse_position
from engine.position import CURRENT_RULES


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as engine errors instead of exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise EngineError(f"bad arguments: {message}")


def _read_input(path: str | None) -> str:
    if path is None:
        data = sys.stdin.buffer.read()
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise EngineError(f"cannot read {path!r}: {e.strerror}") from None
    return decode(data)


def cmd_replay(args: argparse.Namespace) -> Any:
    return Game.from_record(_read_input(args.file)).summary()


def cmd_unloads(args: argparse.Namespace) -> Any:
    return [list(u) for u in unloads(parse_position(args.position))]


def cmd_bench(args: argparse.Namespace) -> Any:
    from engine.bench import run_bench

    turns_per_s, games_per_s = run_bench(args.seconds, args.seed, args.size, args.rules)
    print(f"{turns_per_s:.0f} turns/s, {games_per_s:.0f} games/s")
    return None


def _parser() -> _Parser:
    parser = _Parser(prog="python -m engine", description="The Cargo Connect rules engine.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("replay", help="play a game or puzzle record; print the outcome")
    p.add_argument("file", nargs="?")
    p.set_defaults(run=cmd_replay)
    p = sub.add_parser("unloads", help="the AppCons the side to move could unload")
    p.add_argument("position")
    p.set_defaults(run=cmd_unloads)
    p = sub.add_parser("bench", help="random 8×8 games for about ten seconds; turns/s")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--size", type=int, default=8)
    p.add_argument("--rules", default=CURRENT_RULES)
    p.set_defaults(run=cmd_bench)
    for name in _COMMAND_MODULES:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).add_commands(sub)
    return parser


#: Engine modules that add subcommands of their own: each has ``add_commands(sub)``, which
#: only declares its parsers (heavy imports happen when the command runs).
_COMMAND_MODULES = ("engine.bot_cli", "engine.solver_cli")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        out = args.run(args)
    except EngineError as e:
        print(json.dumps({"error": str(e), "at": e.at}))
        return 2
    except RecursionError:
        print(json.dumps({"error": "input is nested too deeply", "at": None}))
        return 2
    if out is not None:
        print(json.dumps(out))
    return 0
