"""How to play Cargo Express: the page's examples (the kind's `howto`). Its boards are the
game page's own track drawn from states the kind builds (a real game, seats played by the
kind's Easy bot); the fair-play example is computed by the table's own hashes, so the page
says exactly what the site does."""

from __future__ import annotations

from functools import cache
from typing import Any

from express.table import plan_hash, plan_salt, seed_hash
from games.kinds import GameKind, LiveGame

SEATS = 3
HOWTO_SEED = 20261203  # the same deal every time the page is drawn
BOT_LEVEL = "easy"


def _play_until(kind: GameKind, game: LiveGame, done: Any, limit: int = 2000) -> None:
    """Let the kind's bot decide for whoever acts, until `done(state)` or the game ends."""
    for _ in range(limit):
        state = game.view(None)
        if game.over or done(state):
            return
        seat = game.acting()[0]
        token = kind.bot_decision(game.redacted(seat), seat, BOT_LEVEL, 7 + seat)
        # A step at a time, as the page sends them (a whole turn "CARD:STEPS" is its steps).
        for step in token.rpartition(":")[2].split(".") if ":" in token else [token]:
            game.apply(seat, step)


def _fourth_turn(state: dict[str, Any]) -> bool:
    """The action phase, three cards played: trains have cars, complexes were refilled."""
    return state.get("phase") == "turn" and (state.get("turn") or {}).get("number", 0) >= 4


def _public(game: LiveGame) -> dict[str, Any]:
    """The spectator's state, with the seats' labels the platform would add."""
    state = game.view(None)
    state.setdefault("viewer", None)
    return state


@cache
def boards(kind: GameKind, start: str) -> list[dict[str, Any]]:
    """The page's boards from `start` (the deal of HOWTO_SEED for SEATS seats)."""
    game = kind.replay(start, [], [])
    out = [{"id": "xp-start", "section": "track", "title": "The start of a game for three",
            "text": "Each locomotive stands on the complex of its own colour; every "
                    "complex holds three cars from the bag.", "state": _public(game)}]
    _play_until(kind, game, _fourth_turn)
    out.append({"id": "xp-action", "section": "round", "title": "Round 1, during the action phase",
                "text": "Three cards have been revealed and played: locomotives have moved "
                        "and picked up cars, and the complexes were refilled from the bag.",
                "state": _public(game)})
    _play_until(kind, game, lambda s: False)
    out.append({"id": "xp-end", "section": "end", "title": "The end of a game played by bots",
                "text": "The final scoring, broken down: cars, sets of five, contracts, and "
                        "−2 for each open contract.", "state": _public(game)})
    return out


# "Fair play": an example of the seed hash and a stack's fingerprint, computed by the kind's
# own functions (so the page says exactly what the site does; the texts hashed are shown,
# and tests/home/test_howto_express_fair.py hashes them again).
EXAMPLE_GAME = "Ex4mpleG4m"
EXAMPLE_SEED = "5804712399461532017"
EXAMPLE_SEAT, EXAMPLE_ROUND, EXAMPLE_STACK = 2, 3, "B3A2A1"


@cache
def fair_play_example() -> dict[str, Any]:
    game, seed = EXAMPLE_GAME, EXAMPLE_SEED
    seat, round_, stack = EXAMPLE_SEAT, EXAMPLE_ROUND, EXAMPLE_STACK
    salt = plan_salt(seed, round_, seat - 1)  # the kind counts seats from 0
    return {
        "game": game, "seed": seed,
        "seed_text": f"cargo-express:{game}:{seed}", "seed_hash": seed_hash(game, seed),
        "seat": seat, "round": round_, "stack": stack,
        "salt_text": f"cargo-express-plan-salt:{seed}:{round_}:{seat}", "salt": salt,
        "fingerprint_text": f"{seat}:{round_}:{stack}:{salt}",
        "fingerprint": plan_hash(seat - 1, round_, stack, salt),
    }
