"""Cargo Express rules engine: pure Python, standard library only.

Nothing here imports Django or the Cargo Connect engine. Start with :class:`Game`
(tokens in, events out) or, for speed, :class:`Position` with :func:`legal` and
:func:`play` (no events, no copies). See express/README.md.
"""

from express.decisions import (
    Action,
    Decision,
    Fulfil,
    Pick,
    Plan,
    Resign,
    Swap,
    Turn,
    parse_decision,
    parse_turn,
)
from express.errors import ExpressError
from express.game import Game
from express.legal_decisions import legal, legal_turns
from express.moves import play
from express.notation import format_position, parse_position
from express.position import Hidden, Position, Result, start_position
from express.record import Record, parse_record
from express.rules import RULES_VERSION

__all__ = [
    "RULES_VERSION",
    "Action",
    "Decision",
    "ExpressError",
    "Fulfil",
    "Game",
    "Hidden",
    "Pick",
    "Plan",
    "Position",
    "Record",
    "Resign",
    "Result",
    "Swap",
    "Turn",
    "format_position",
    "legal",
    "legal_turns",
    "parse_decision",
    "parse_position",
    "parse_record",
    "parse_turn",
    "play",
    "start_position",
]
