"""Pinned CargoBot turns: an accidental change of behaviour fails here.

If a change to the bot is meant, bump ``BOT_VERSION`` (the Daily Challenge voids ranked
games in progress when it changes) and update both the version and the turns below.
"""

from __future__ import annotations

import pytest

from engine import parse_position
from engine.bot import BOT_LEVELS, BOT_VERSION, choose_turn

SEED = 2026

# Positions reached by bot-vs-bot play on every size and rules version; the turns each
# level chose with SEED when BOT_VERSION was last changed.
PINNED = [
    ("...../...../....B/...OO/...OB b SLPDR SLPD - - - 0 0 6 0.92",
     {"easy": "e", "medium": "Re2", "hard": "Pd"}),
    ("....../....../....OB/...BOx/..xBOx/.xxxxx b SLPDR SLPDR - T J 6 6 14 0.89",
     {"easy": "d", "medium": "Re2", "hard": "Pe"}),
    ("......./......x/......x/.....xx/.....xx/.BOOxxx/.xxxOOO b LPD SLPDR - OL I 11 8 20 0.88",
     {"easy": "a", "medium": "b", "hard": "d"}),
    ("......../......../......../......../......Ox/.B....Ox/.Bx.B.xx/.xxxxxxx "
     "b SLPDR SLR - L SI 6 15 24 0.92",
     {"easy": "d", "medium": "c", "hard": "g"}),
    ("....../.....x/.....x/.xBOBx/.xBOOx/xxxxBx b SLD SLP - LZ JI 13 14 30 0.92",
     {"easy": "e", "medium": "d", "hard": "Dd2d3"}),
]


def test_the_version_is_pinned_with_the_turns() -> None:
    assert BOT_VERSION == "1"
    assert BOT_LEVELS == ("easy", "medium", "hard")


@pytest.mark.parametrize("text,turns", PINNED)
def test_it_chooses_the_pinned_turns(text: str, turns: dict[str, str]) -> None:
    got = {level: choose_turn(parse_position(text), level, SEED) for level in BOT_LEVELS}
    assert got == turns
