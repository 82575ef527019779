"""A player's ratings, kept beside Django's user (one row per user, made on first need).
Only `rankings.ratings` writes them (when a game ends or is voided)."""

from django.conf import settings
from django.db import models

from rankings.elo import START_RATING


class Player(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    rating = models.IntegerField(default=START_RATING)
    rated_games = models.PositiveIntegerField(default=0)
    # The vs CargoBot rating: casual games against CargoBot only (docs/bot-games.md).
    bot_rating = models.IntegerField(default=START_RATING)
    bot_games = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user} ({self.rating})"
