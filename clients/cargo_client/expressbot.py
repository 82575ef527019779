"""ExpressBot (the site's `express/` package) as the client's engine for Cargo Express.

The bot decides from a seat's public view in the engine's notation (`express.bot.choose`:
`view --seat K`, every hidden part a `?` count), never from the whole position. The site
does not send that text: `view_text` writes it from the seat's own state as the stream
carries it (docs/live-protocol.md, "The state's Cargo Express part"), which holds exactly
what the view holds: the board and its cars, the bag's and deck's counts, each seat's
engine, space, train, yard, fulfilled contracts, open contracts (its own; a count for the
others), character and dormancy, its own unrevealed cards and a count of the others'."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cargo_client.engines import EngineError
from express.bot import choose
from express.errors import ExpressError
from express.levels import BY_NAME


class ExpressBot:
    """ExpressBot at `level` (easy, medium or hard); `seed` feeds its seeded choices."""

    game_type = "cargo-express"

    def __init__(self, level: str = "easy", seed: int = 0) -> None:
        if level not in BY_NAME:
            raise EngineError(f"ExpressBot level {level!r}: {', '.join(BY_NAME)}")
        self.level = level
        self.seed = seed

    def decide(self, state: Mapping[str, Any], seat: int) -> str:
        """A pick, a plan of three cards, a whole turn `CARD:STEPS` or a refit swap."""
        if state.get("viewer") not in (seat, None) or not state.get("legal"):
            raise EngineError(f"the state is not seat {seat}'s own with a decision to make")
        try:
            return choose(view_text(state, seat), self.level, self.seed, seat + 1)
        except (KeyError, TypeError, ExpressError) as e:
            raise EngineError(f"ExpressBot cannot play this state: {e}") from None


def view_text(state: Mapping[str, Any], seat: int) -> str:
    """Seat `seat`'s public position in the engine's notation (express/notation.py), from
    that seat's state: the same text as the site's `format_position(p, seat + 1)`."""
    areas = state["areas"]
    board = "/".join(s["piece"] + (s.get("cars") or "") for s in state["spaces"])
    used = {c["key"]: c["used"] for c in state["characters"]}
    chars = "/".join(_character(a["character"], used) for a in areas)
    flags = ("e" if state["bag_empty"] else "") + ("l" if state["last_round"] else "")
    return " ".join([
        board, f"?{state['bag']}", f"?{state['deck']}",
        "/".join(_seat(a, a["seat"] == seat) for a in areas), chars,
        "/".join(_plan(state, a, a["seat"] == seat) for a in areas),
        str(state["stationmaster"] + 1), str(state["round"]), state["phase_token"],
        flags or "-", state["rules"]])


def _seat(area: Mapping[str, Any], own: bool) -> str:
    """`A@3:train:yard:open:done!`, the open contracts shown to their own seat only."""
    opened = (",".join(area["open"]) or "-") if own else f"?{area['open_count']}"
    done = ",".join(f"{f['id']}={f['cars']}" for f in area["fulfilled"]) or "-"
    return (f"{area['engine']}@{area['space']}:{area['train'] or '-'}:{area['yard'] or '-'}:"
            f"{opened}:{done}{'!' if area['dormant'] else ''}")


def _character(key: str | None, used: Mapping[str, bool]) -> str:
    if not key:
        return "-"
    return "Dr*" if key == "Dr" and used.get("Dr") else key


def _plan(state: Mapping[str, Any], area: Mapping[str, Any], own: bool) -> str:
    """The cards of the round not yet played, top first: only the action phase holds any
    (a plan kept in planning is not the engine's until planning closes). The card of the
    turn in progress is revealed but still on top of its seat's stack."""
    if state["phase"] != "turn":
        return "-"
    turn = state.get("turn") or {}
    current = turn.get("seat") == area["seat"] and turn.get("card") not in (None, "-")
    if own:
        return "".join(([turn["card"]] if current else []) + list(area["plan"] or [])) or "-"
    return "?" * (area["stack"] + (1 if current else 0)) or "-"
