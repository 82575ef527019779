"""Cargo Connect rules engine: pure Python, standard library only.

The site, CargoBot and the puzzle solver all call this package; nothing else decides a
rule. Start with :class:`Game` (tokens in, events out) or, for speed, :class:`Position`
(integer actions and bitboards).
"""

from engine.errors import EngineError
from engine.game import Game, unloads
from engine.notation import (
    Goal,
    Record,
    action_token,
    format_position,
    parse_goal,
    parse_position,
    parse_record,
    start_position,
    turn_token,
)
from engine.position import CURRENT_RULES, RULES_VERSIONS, FinalAudit, Position, SideAudit

__all__ = [
    "CURRENT_RULES",
    "RULES_VERSIONS",
    "EngineError",
    "FinalAudit",
    "Game",
    "Goal",
    "Position",
    "Record",
    "SideAudit",
    "action_token",
    "format_position",
    "parse_goal",
    "parse_position",
    "parse_record",
    "start_position",
    "turn_token",
    "unloads",
]
