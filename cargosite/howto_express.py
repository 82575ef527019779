"""How to play Cargo Express. Its boards are the game page's own track drawn from states the
game kind builds (a real game, seats played by the kind's Easy bot); this module never
reads the engine (tests/platform/test_boundaries.py: only games/kinds/ imports express/).
The page ends with the lobby's "Play against ExpressBots" form (games.forms.bots_form)."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.forms import bots_form
from games.kinds import GameKind, LiveGame, get_kind
from games.kinds.cargo_express import CARGO_EXPRESS

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
def boards() -> list[dict[str, Any]]:
    kind = get_kind("cargo-express")
    start = CARGO_EXPRESS.start_from_seed(SEATS, HOWTO_SEED, kind.rules_version)
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


def how_to_play(request: HttpRequest) -> HttpResponse:
    form = bots_form(CARGO_EXPRESS, request.user.is_authenticated)
    return render(request, "howto_express.html", {"boards": boards(), "bots_form": form})
