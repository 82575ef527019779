"""The ratings live play shows: beside each seat of a game (the rating, which one it is,
whether it is provisional, a finished game's changes) and beside a table's host in the lobby.
They are asked of the app that keeps ratings, which registers itself when it loads
(`rankings.apps.RankingsConfig.ready` registers `rankings.ratings`), so that the games app
never imports an app built on it (tests/platform/test_boundaries.py)."""

from __future__ import annotations

from typing import Any, Protocol

from games.models import Game, Seat


class RatingsShown(Protocol):
    def rating_changes(self, game: Game) -> dict[int, Any]:
        """A finished game's rating changes by seat index (each with `before`, `delta`,
        `provisional`); {} for a game that changed none."""

    def game_rating(self, game: Game, seat: Seat, changes: dict[int, Any]) -> int | None:
        """The rating the seat shows on this game's pages."""

    def rating_system(self, game: Game, seat: Seat) -> str | None:
        """Which rating that is ("elo", "openskill", "vs_cargobot", "bot_level"; the state
        sends it as `rating_kind`)."""

    def game_provisional(self, game: Game, seat: Seat, changes: dict[int, Any]) -> bool:
        """Is the rating the seat shows provisional?"""

    def host_ratings(self, user_ids: list[int], game_type: str) -> dict[int, int]:
        """These members' online ratings of a game type, by member (the lobby's hosts)."""


_shown: list[RatingsShown] = []


def shown_by(ratings: RatingsShown) -> None:
    """Register the app that keeps ratings (the last registration counts)."""
    _shown[:] = [ratings]


def shown() -> RatingsShown:
    if not _shown:
        raise RuntimeError("no app shows ratings (rankings.apps registers rankings.ratings)")
    return _shown[0]
