"""A player's rating, kept beside Django's user (one row per user, made on first need)."""

from django.conf import settings
from django.db import models

START_RATING = 1200


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
