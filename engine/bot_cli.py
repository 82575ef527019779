"""The ``bot`` and ``tournament`` commands of ``python -m engine`` (kept light: the bot and
tournament modules are imported only when a command runs)."""

from __future__ import annotations

import argparse
from typing import Any

from engine.bot import BOT_LEVELS as LEVELS
from engine.position import CURRENT_RULES


def cmd_bot(args: argparse.Namespace) -> Any:
    from engine.bot import choose_turn
    from engine.cli import _read_input
    from engine.errors import EngineError
    from engine.game import Game

    game = Game.from_record(_read_input(args.file))
    if game.is_puzzle:
        raise EngineError("CargoBot plays shifts, not puzzles: the record has Goal and Turns")
    if game.over:
        if game.resigned is not None:
            raise EngineError("the game is over (a player resigned): there is no turn to choose")
        raise EngineError("the shift is over: there is no turn to choose")
    return {"turn": choose_turn(game.position, args.level, args.seed)}


def cmd_tournament(args: argparse.Namespace) -> Any:
    from engine.errors import EngineError
    from engine.tournament import check_pairing, report, run

    pairings = [check_pairing(x) for x in args.pairings.split(",") if x]
    sizes = [int(x) for x in args.sizes.split(",") if x]
    if any(s not in (5, 6, 7, 8) for s in sizes):
        raise EngineError(f"bad --sizes {args.sizes!r}: sizes are 5 to 8")
    if args.games < 1:
        raise EngineError("--games must be at least 1")
    cmd = (f"python -m engine tournament --pairings {','.join(pairings)} --sizes "
           f"{','.join(map(str, sizes))} --games {args.games} --seed {args.seed} "
           f"--opening {args.opening} --jobs {args.jobs}")
    results = run(pairings, sizes, args.games, args.seed, args.jobs, args.opening,
                  args.rules, progress=args.progress)
    print(f"# {cmd}")
    print(report(results))
    return None


def add_commands(sub: Any) -> None:
    p = sub.add_parser("bot", help="CargoBot's whole turn for the side to move in a record")
    p.add_argument("--level", required=True, choices=LEVELS)
    p.add_argument("--seed", required=True, type=int)
    p.add_argument("file", nargs="?")
    p.set_defaults(run=cmd_bot)
    p = sub.add_parser("tournament", help="CargoBot levels against each other; win rates")
    p.add_argument("--pairings", default="easy-random,medium-easy,hard-medium",
                   help="comma-separated A-B pairs of random, easy, medium, hard")
    p.add_argument("--sizes", default="6,8")
    p.add_argument("--games", type=int, default=100, help="games per pairing and size")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--opening", type=int, default=2, help="random drops before the bots play")
    p.add_argument("--jobs", type=int, default=1, help="processes")
    p.add_argument("--rules", default=CURRENT_RULES)
    p.add_argument("--progress", action="store_true", help="a line per finished game")
    p.set_defaults(run=cmd_tournament)
