"""Arena tournaments (issue #46) as pure functions: no Django, no database.

An arena lasts a fixed time with one time control; a player who is free is paired again at
once. :mod:`.scoring` turns the stored games into each player's sheet (win 2, draw 1, fire
after two wins, the berserk point), the standings and the podium; :mod:`.pairing` decides
which of the waiting players start a game now and who plays Blue; :mod:`.berserk` whether a
player may berserk and the clock it leaves them. The site stores games and calls these;
docs/tournaments-arena.md gives the rules and what was taken from lichess.
"""

from tournaments.arena.berserk import BerserkRequest, LiveClock, berserk_clock, may_berserk
from tournaments.arena.pairing import Pair, PairingRules, Waiting, pairings
from tournaments.arena.scoring import (
    ArenaGame,
    ArenaRules,
    Entrant,
    Outcome,
    Result,
    Sheet,
    Standing,
    build_sheet,
    podium,
    sheet_of,
    standings,
)

__all__ = [
    "ArenaGame",
    "ArenaRules",
    "BerserkRequest",
    "Entrant",
    "LiveClock",
    "Outcome",
    "Pair",
    "PairingRules",
    "Result",
    "Sheet",
    "Standing",
    "Waiting",
    "berserk_clock",
    "build_sheet",
    "may_berserk",
    "pairings",
    "podium",
    "sheet_of",
    "standings",
]
