"""Real Cargo Express states for the view's browser tests: a game made by the kind
(games/kinds/cargo_express/), its seats decided by the kind's Easy bot until the moment a
test wants, and each viewer's state as the kind builds it (`LiveGame.view`) with the seat
fields the platform adds (`seats`: side, label, name)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.kinds import LiveGame, get_kind

KIND = "cargo-express"
NAMES = ("alice", "bob", "ExpressBot Easy", "ExpressBot Medium")


def new_game(seats: int = 3) -> LiveGame:
    kind = get_kind(KIND)
    return kind.replay(kind.new({}, seats, kind.rules_version), [], [])


def play_until(game: LiveGame, done: Callable[[LiveGame], bool], limit: int = 3000) -> LiveGame:
    """Bots decide for whoever acts until `done(game)` (or the game ends)."""
    kind = get_kind(KIND)
    for _ in range(limit):
        if game.over or done(game):
            return game
        seat = game.acting()[0]
        game.apply(seat, kind.bot_decision(game.redacted(seat), seat, "easy", 3))
    raise AssertionError("the bots did not get there")


def phase(game: LiveGame) -> str:
    return str(game.view(None)["phase"])


def state_for(game: LiveGame, viewer: int | None) -> dict[str, Any]:
    kind = get_kind(KIND)
    state = game.view(viewer)
    state["seats"] = [{"seat": i, "side": kind.seat_key(i), "label": kind.seat_label(i),
                       "name": NAMES[i], "rating": None, "bot": None}
                      for i in range(len(state["areas"]))]
    state.update(id="real", viewer=viewer, acting=[] if game.over else game.acting(),
                 over=game.over, status="finished" if game.over else "active", turns=[])
    return state
