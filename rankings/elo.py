"""Elo as pure functions: the expected score, the K factor, the new rating.

K is 40 for a player's first 30 rated games, then 20; a change is rounded half up. The vs
CargoBot rating uses the same formula against each level's fixed rating (the game kind's
`bot_ratings`, docs/bot-games.md).
"""

from __future__ import annotations

import math

START_RATING = 1200
PROVISIONAL_GAMES = 30
K_PROVISIONAL, K_ESTABLISHED = 40, 20


def expected_score(rating: int, opponent: int) -> float:
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def k_factor(rated_games: int) -> int:
    return K_PROVISIONAL if rated_games < PROVISIONAL_GAMES else K_ESTABLISHED


def new_rating(rating: int, opponent: int, score: float, rated_games: int) -> int:
    """Elo: rating + K (score - expected), rounded half up."""
    change = k_factor(rated_games) * (score - expected_score(rating, opponent))
    return rating + math.floor(change + 0.5)
