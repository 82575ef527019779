"""JSON-ready descriptions of a game for clients: the board, hands, shelves and choices.

The site sends these to the browser so that the page draws the bay and offers only legal
choices without knowing any rule: for every legal Phase 1 action after which the mover
could unload, ``options`` gives the bay after that action and the AppCons then available.
"""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.geometry import SHAPE_ORDER, SHAPE_VALUE
from engine.notation import action_token, format_board, format_position
from engine.position import BLUE, CARD_ORDER, NO_LOCK, SIDE_NAMES, Position

CARD_NAMES = {
    "S": "Station Rotation 90°",
    "L": "Corridor Lockdown",
    "P": "Corridor Purge",
    "D": "Cargo Damage",
    "R": "Re-Routing Order",
}


def rows(p: Position) -> list[str]:
    """The bay as strings, top row first: ``.`` empty, ``B``/``O`` cores, ``x`` Empty Can."""
    return format_board(p).split("/")


def shelf(p: Position, side: int) -> dict[str, str]:
    """Each shape's chit for a side: ``gold``, ``steel`` or ``rust`` (not yet completed)."""
    out = {}
    for i, shape in enumerate(SHAPE_ORDER):
        bit = 1 << i
        out[shape] = "gold" if p.gold[side] & bit else "steel" if p.steel[side] & bit else "rust"
    return out


def hand(p: Position, side: int) -> list[str]:
    return [c for i, c in enumerate(CARD_ORDER) if p.cards[side] >> i & 1]


def turn_options(p: Position, tokens: dict[int, str] | None = None
                 ) -> dict[str, dict[str, Any]]:
    """For each legal Phase 1 token after which the mover could unload: the bay then and
    the AppCons (cells, shape, value) on offer. Tokens not listed can only be played alone.
    `tokens` are the legal actions' tokens, when the caller has them already.
    """
    if tokens is None:
        tokens = {action: action_token(action, p) for action in p.actions()}
    options: dict[str, dict[str, Any]] = {}
    p.appcons(p.side)  # known before the copies: a drop then only looks through its cell
    for action, token in tokens.items():
        after = p.copy()
        after.apply_action(action)
        found = after.appcons(after.side)
        if found:
            options[token] = {
                "rows": rows(after),
                "lock": None if after.lock == NO_LOCK else p.g.corridor_names[after.lock],
                "unloads": [
                    [a.names, SHAPE_ORDER[a.shape], SHAPE_VALUE[SHAPE_ORDER[a.shape]]]
                    for a in found
                ],
            }
    return options


def describe(game: Game, position: str | None = None) -> dict[str, Any]:
    """Everything a client needs to draw the game and offer the next turn. `position` is
    the game's position in notation, when the caller has formatted it already."""
    p = game.position
    over = game.over
    if position is None:
        position = format_position(p)
    tokens = game.action_tokens()
    return {
        "size": p.n,
        "rules": p.rules,
        "position": position,
        "rows": position.split(" ", 1)[0].split("/"),
        "to_move": SIDE_NAMES[p.side],
        "ply": game.ply,
        "lock": None if p.lock == NO_LOCK else p.g.corridor_names[p.lock],
        "cards": {SIDE_NAMES[s]: hand(p, s) for s in (BLUE, 1)},
        "shelves": {SIDE_NAMES[s]: shelf(p, s) for s in (BLUE, 1)},
        "points": {SIDE_NAMES[s]: p.points[s] for s in (BLUE, 1)},
        "legal": sorted(tokens.values()),  # `game.legal()`, its tokens worked out once
        "options": turn_options(p, tokens) if tokens else {},
        "over": over,
        "result": game.result(),
        "audit": game.audit().as_dict() if over and not game.is_puzzle else None,
    }
