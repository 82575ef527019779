"""The Daily Challenge's rows: which games are the Challenge's (`DailyGame`: the day, the
difficulty, the player, ranked or practice) and the log of voids (`DailyVoid`: who and why).

The game itself is a games-app game (`mode=daily`). Whether a game is ranked is fixed when
it is created; a database constraint allows one ranked game per member, day and difficulty
that is not voided, so two devices starting at once make one ranked game.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Difficulty(models.TextChoices):
    EASY = "easy", "Easy"
    MEDIUM = "medium", "Medium"
    HARD = "hard", "Hard"


class DailyGame(models.Model):
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="daily")
    day = models.DateField()  # the Pacific day of the challenge (not of the play, in the archive)
    difficulty = models.CharField(max_length=8, choices=Difficulty.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="daily_games")
    guest_key = models.CharField(max_length=64, null=True, blank=True)
    ranked = models.BooleanField(default=False)
    voided = models.BooleanField(default=False)  # set with the game's void, in its transaction
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "day", "difficulty"], condition=Q(ranked=True, voided=False),
                name="daily_one_ranked_game",
            ),
            models.CheckConstraint(condition=Q(ranked=False) | Q(user__isnull=False),
                                   name="daily_ranked_is_a_members"),
            models.CheckConstraint(condition=Q(user__isnull=True) | Q(guest_key__isnull=True),
                                   name="daily_one_player"),
        ]
        indexes = [
            models.Index(fields=["day", "difficulty"], name="daily_day_difficulty"),
            models.Index(fields=["user", "day"], name="daily_user_day"),
            models.Index(fields=["ranked", "day"], condition=Q(ranked=True, voided=False),
                         name="daily_ranked_days"),
        ]

    def __str__(self) -> str:
        kind = "ranked" if self.ranked else "practice"
        return f"{self.day} {self.difficulty} {kind} ({self.game_id})"


class DailyVoid(models.Model):
    """One voided Daily Challenge game: who voided it (None: the site) and why."""

    class Source(models.TextChoices):
        ADMIN = "admin", "Admin action"
        DETECTED = "detected", "Detected on access"
        SITE = "site", "Other (the games admin, a script)"

    daily = models.OneToOneField(DailyGame, on_delete=models.CASCADE, related_name="void")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                           on_delete=models.SET_NULL, related_name="+")
    source = models.CharField(max_length=8, choices=Source.choices)
    reason = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"void of {self.daily.game_id}: {self.reason}"
