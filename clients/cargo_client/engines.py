"""What the client asks of an engine, and the adapters it ships by name.

An engine is given the seat's state as the site sends it (the game's own fields, `legal`
among them, and the site's: `acting`, `seqs`, `ply`, …; docs/live-protocol.md) and that
seat's index, and returns one decision token in the game's notation. It is asked only when
the seat must decide, once per decision number. Any object with `game_type` and `decide`
will do; `ENGINES` names the two adapters shipped here, imported only when asked for (they
need the site's engine packages, `engine/` and `express/`, on the path)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol


class Engine(Protocol):
    """A seat's decisions in one game type (`game_type`: `cargo-connect`, …)."""

    game_type: str

    def decide(self, state: Mapping[str, Any], seat: int) -> str:
        """The seat's next decision, a token of the game's notation."""
        ...


class EngineError(ValueError):
    """An engine that cannot decide from the state it was given (the message says why)."""


# name -> (module, class): the adapters shipped with the client
ENGINES = {"cargobot": ("cargo_client.cargobot", "CargoBot"),
           "expressbot": ("cargo_client.expressbot", "ExpressBot")}


def make_engine(name: str, level: str, seed: int = 0) -> Engine:
    """The adapter called `name` at `level` (its bot's own level names)."""
    if name not in ENGINES:
        raise EngineError(f"unknown engine {name!r}: {', '.join(sorted(ENGINES))}")
    module, cls = ENGINES[name]
    made: Engine = getattr(importlib.import_module(module), cls)(level=level, seed=seed)
    return made
