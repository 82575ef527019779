"""The command line: `python -m cargo_client --url … --token … --engine cargobot` plays the
account's games as they come (its event stream) until Ctrl-C; `--game ID` plays that one
game and stops. The token comes from `--token` or the environment's `CARGO_TOKEN`."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from cargo_client.api import ApiError, Client
from cargo_client.engines import ENGINES, EngineError, make_engine
from cargo_client.play import EventRunner, GamePlayer


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m cargo_client", description=__doc__)
    p.add_argument("--url", required=True, help="the site, e.g. https://cargo.example")
    p.add_argument("--token", default=os.environ.get("CARGO_TOKEN"),
                   help="a personal access token with the read and bot:play scopes "
                        "(board:play with --door board); default: $CARGO_TOKEN")
    p.add_argument("--engine", required=True, choices=sorted(ENGINES))
    p.add_argument("--level", default="easy", help="the bot's level: easy, medium or hard")
    p.add_argument("--seed", type=int, default=0, help="the bot's seed")
    p.add_argument("--door", default="bot", choices=("bot", "board"),
                   help="the play endpoints: /api/bot/… (default) or /api/board/…")
    p.add_argument("--game", help="play this game only, then stop")
    p.add_argument("--max-games", type=int, default=4, help="games played at once")
    p.add_argument("-v", "--verbose", action="store_true", help="log every decision")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(threadName)s %(message)s")
    if not args.token:
        print("a token is needed: --token or CARGO_TOKEN", file=sys.stderr)
        return 2
    try:
        client = Client(args.url, args.token, door=args.door)
        engine = make_engine(args.engine, args.level, args.seed)
        if args.game:
            outcome = GamePlayer(client, args.game, engine).play()
            result = (outcome.state or {}).get("result")
            print(f"game {args.game}: seat {outcome.seat}, {len(outcome.sent)} decisions, "
                  f"result {result}")
            return 0
        EventRunner(client, engine, max_games=args.max_games).run()
    except (ApiError, EngineError, ValueError, ConnectionError) as e:
        print(f"cargo_client: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
