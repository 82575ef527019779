"""``python -m express``: the command line of notation.md ("Command line").

Every command prints one line of JSON. Bad input exits with status 2 and prints
``{"error": ..., "at": ...}``; nothing is ever printed as a traceback.

``bot`` is dispatched to :func:`express.bot.choose` (view, level, seed, seat), which sees
only the public view of the seat (``view --seat K``) and returns one decision token.
``tournament`` and ``balance`` (:mod:`express.tournament`) are not in notation.md: they
print a plain-text report (Markdown tables) instead of JSON; their errors are JSON too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from express.errors import ExpressError
from express.game import Game
from express.position import start_position
from express.record import decode, parse_players, parse_seed
from express.rules import CURRENT_RULES

_DECIMAL = re.compile(r"[0-9]+")


class _HelpAsked(Exception):  # noqa: N818 - not an error: the reader asked for help
    """`-h` / `--help` anywhere: print this parser's help on standard output, exit 0."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class _Help(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default,
                         help="show this help and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        raise _HelpAsked(parser.format_help())


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as engine errors instead of exiting; `-h` and
    `--help` print help (standard output, status 0), which is not an error."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self.add_argument("-h", "--help", action=_Help)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise ExpressError(f"bad arguments: {message}")

    def exit(self, status: int = 0, message: str | None = None) -> None:  # type: ignore[override]
        raise ExpressError("bad arguments: " + (message or "").strip() or "bad arguments")


def _read_input(path: str | None) -> str:
    if path is None:
        data = sys.stdin.buffer.read()
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise ExpressError(f"cannot read {path!r}: {e.strerror}") from None
    return decode(data)


def _seat(text: str) -> int:
    if not _DECIMAL.fullmatch(text):
        raise ExpressError(f"bad seat {text!r}: a seat is a decimal number")
    return int(text)


def cmd_start(args: argparse.Namespace) -> Any:
    players = parse_players(args.players)
    seed = parse_seed(args.seed)
    from express.notation import format_position

    return {"position": format_position(start_position(players, seed))}


def cmd_replay(args: argparse.Namespace) -> Any:
    return Game.from_record(_read_input(args.file)).summary()


def cmd_view(args: argparse.Namespace) -> Any:
    seat = _seat(args.seat)
    game = Game.from_record(_read_input(args.file))
    return {"position": game.view(seat)}


def cmd_bot(args: argparse.Namespace) -> Any:
    if args.level not in ("easy", "medium", "hard"):
        raise ExpressError(f"bad level {args.level!r}: easy, medium or hard")
    seed = parse_seed(args.seed)
    seat = _seat(args.seat)
    game = Game.from_record(_read_input(args.file))
    if not 1 <= seat <= game.position.n or seat not in game.to_move():
        raise ExpressError(f"seat {seat} has no decision to make now (to move: "
                           f"{game.to_move()})")
    from express import bot  # imported here: the other commands do not need it

    return {"decision": bot.choose(game.view(seat), args.level, seed, seat)}


def cmd_bench(args: argparse.Namespace) -> Any:
    from express.bench import run_bench

    seconds = float(args.seconds)
    if not 0 < seconds <= 3600:
        raise ExpressError("bad --seconds: 0 < seconds ≤ 3600")
    if args.plans not in ("uniform", "usable"):
        raise ExpressError(f"bad --plans {args.plans!r}: uniform or usable")
    if args.policy not in ("legal", "fast"):
        raise ExpressError(f"bad --policy {args.policy!r}: legal or fast")
    from express.tournament import check_rules

    return run_bench(seconds, parse_seed(args.seed), parse_players(args.players),
                     args.plans == "usable", args.policy == "fast", check_rules(args.rules))


def _count(text: str, what: str, low: int = 1) -> int:
    if not _DECIMAL.fullmatch(text) or int(text) < low:
        raise ExpressError(f"bad {what} {text!r}: a decimal number, at least {low}")
    return int(text)


def cmd_tournament(args: argparse.Namespace) -> Any:
    from express.tournament import check_pairing, check_rules, load, report, run

    if args.load:
        results = load(args.load.split(","))
        if not results:
            raise ExpressError("no saved results to report on")
        versions = ", ".join(sorted({r.rules for r in results}))
        return f"# saved games from {args.load} (rules {versions})\n{report(results)}"
    pairings = [check_pairing(x) for x in args.pairings.split(",") if x]
    if not pairings:
        raise ExpressError("bad --pairings: at least one A-B pairing")
    players = parse_players(args.players)
    games = _count(args.games, "--games")
    jobs = _count(args.jobs, "--jobs")
    seed = parse_seed(args.seed)
    rules = check_rules(args.rules)
    first = _count(args.first, "--first", low=0)
    if first >= games:
        raise ExpressError(f"bad --first {first}: games are numbered 0 to {games - 1}")
    results = run(pairings, players, games, seed, jobs, progress=args.progress,
                  save=args.save, rules=rules, first=first)
    start = f" --first {first}" if first else ""
    return (f"# python -m express tournament --pairings {','.join(pairings)} --players "
            f"{players} --games {games}{start} --seed {seed} --jobs {jobs} --rules {rules}\n"
            f"{report(results)}")


def cmd_balance(args: argparse.Namespace) -> Any:
    from express.tournament import PLAYERS, balance_report, check_rules, load, run_selfplay

    rules = check_rules(args.rules)
    if args.load:
        results = load(args.load.split(","))
        groups = sorted({(r.rules, r.players) for r in results})
        if not results:
            raise ExpressError("no saved results to report on")
        return "\n\n".join(f"# saved games from {args.load}\n" + balance_report(
            [r for r in results if (r.rules, r.players) == g]) for g in groups)
    if args.level not in PLAYERS[1:]:
        raise ExpressError(f"bad level {args.level!r}: easy, medium or hard")
    players = parse_players(args.players)
    games = _count(args.games, "--games")
    jobs = _count(args.jobs, "--jobs")
    seed = parse_seed(args.seed)
    results = run_selfplay(args.level, players, games, seed, jobs, progress=args.progress,
                           save=args.save, rules=rules)
    return (f"# python -m express balance --level {args.level} --players {players} --games "
            f"{games} --seed {seed} --jobs {jobs} --rules {rules}\n"
            f"{balance_report(results)}")


HELP = {
    "start": "the start of a game (2 to 4 players, a seed): its view as JSON",
    "replay": "play a game record (a file, or standard input); print the state reached",
    "view": "what seat K sees of a game record",
    "bot": "CargoBot's decision for seat K at a level, from that seat's view",
    "bench": "random games for a few seconds; decisions per second",
    "tournament": "bot against bot over many games: a plain-text report",
    "balance": "self-play of one level: the seats' win rates, a plain-text report",
}


def _parser() -> _Parser:
    parser = _Parser(prog="python -m express", description="The Cargo Express rules engine. "
                     "Every command prints one line of JSON (tournament and balance: a "
                     "plain-text report); bad input exits with status 2 and prints "
                     '{"error": ..., "at": ...}.', allow_abbrev=False)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                metavar="command")

    def command(name: str, run: Any, *options: str, file: bool = False,
                defaults: dict[str, str] | None = None) -> None:
        p = sub.add_parser(name, allow_abbrev=False, help=HELP[name], description=HELP[name])
        for option in options:
            p.add_argument(option, required=True)
        for option, value in (defaults or {}).items():
            p.add_argument(option, default=value)
        if file:
            p.add_argument("file", nargs="?")
        p.set_defaults(run=run)

    command("start", cmd_start, "--players", "--seed")
    command("replay", cmd_replay, file=True)
    command("view", cmd_view, "--seat", file=True)
    command("bot", cmd_bot, "--level", "--seed", "--seat", file=True)
    command("bench", cmd_bench, defaults={"--seconds": "5", "--seed": "1", "--players": "4",
                                          "--plans": "uniform", "--policy": "legal",
                                          "--rules": CURRENT_RULES})
    for name, run, defaults in (
            ("tournament", cmd_tournament,
             {"--pairings": "easy-random,medium-easy,hard-medium", "--players": "3",
              "--first": "0"}),  # --first: go on with a stopped run (tournament.run)
            ("balance", cmd_balance, {"--level": "hard", "--players": "3"})):
        p = sub.add_parser(name, allow_abbrev=False, help=HELP[name], description=HELP[name])
        for option, value in {**defaults, "--games": "100", "--seed": "1",
                              "--jobs": "1"}.items():
            p.add_argument(option, default=value)
        p.add_argument("--rules", default=CURRENT_RULES)  # the version the games play
        p.add_argument("--progress", action="store_true")
        p.add_argument("--save")  # append each game's result to this file, a JSON line
        p.add_argument("--load")  # report on saved results (files joined by commas)
        p.set_defaults(run=run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        out = args.run(args)
    except _HelpAsked as asked:
        out = asked.text.rstrip("\n")
    except ExpressError as e:
        print(json.dumps({"error": str(e), "at": e.at}))
        return 2
    except RecursionError:
        print(json.dumps({"error": "input is nested too deeply", "at": None}))
        return 2
    except ValueError as e:  # e.g. float("x") for --seconds
        print(json.dumps({"error": f"bad input: {e}", "at": None}))
        return 2
    try:
        print(out if isinstance(out, str) else json.dumps(out))  # reports are plain text
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): not an input error
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the exit-time flush
    return 0
