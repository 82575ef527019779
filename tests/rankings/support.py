"""Setting a member's rating row by hand, for tests that start from a given rating (the
rows `rankings.ratings` otherwise writes when a game ends)."""

from __future__ import annotations

from typing import Any

from accounts.models import Player
from rankings.models import Rating


def set_rating(user: Any, system: str, value: int, games: int,
               game_type: str = "cargo-connect", **numbers: float) -> Rating:
    """The member's `system` rating of `game_type` (Cargo Connect's by default) is `value`
    after `games` games; `numbers` are an OpenSkill row's mu and sigma."""
    Player.objects.get_or_create(user=user)
    row, _ = Rating.objects.update_or_create(user=user, game_type=game_type, system=system,
                                             defaults={"value": value, "games": games,
                                                       **numbers})
    return row
