"""Rating history: one row per member per rated game (Elo online, the vs CargoBot rating
against CargoBot), written by `rankings.ratings` in the transaction that records the result,
deleted when the game is voided (its change taken back)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RatingChange(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE,
                             related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    before = models.IntegerField()
    after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rankings_rating_change_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.game_id}: {self.before} -> {self.after}"

    @property
    def delta(self) -> int:
        return self.after - self.before


class BotRatingChange(models.Model):
    """One finished casual game against CargoBot: the member's vs CargoBot rating before and
    after, against the level's fixed rating (`rankings.elo.BOT_RATINGS`)."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE,
                                related_name="bot_rating_change")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_rating_changes"
    )
    level = models.CharField(max_length=8)
    bot_rating = models.IntegerField()
    score = models.FloatField()  # 1 win, 0.5 draw, 0 loss
    before = models.IntegerField()
    after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user} vs CargoBot {self.level}: {self.before} -> {self.after}"

    @property
    def delta(self) -> int:
        return self.after - self.before


class DailyBoardEntry(models.Model):
    """One finished ranked Daily Challenge game on the monthly boards (a maintained table,
    written by the Daily Challenge's finish handler in the transaction that records the
    result; deleted when the game is voided). `best` marks each member's single best game
    of a (Pacific month, difficulty): the board is the `best` rows in order, read with one
    indexed query (rankings/monthly.py)."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE,
                                related_name="daily_board_entry")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="daily_board_entries")
    month = models.DateField()  # the first day of the challenge's Pacific month
    day = models.DateField()
    difficulty = models.CharField(max_length=8)
    size = models.PositiveSmallIntegerField()
    score = models.IntegerField()  # the player's final score, from the server's replay
    margin = models.IntegerField()  # the player's score - CargoBot's
    # score × 64 ÷ size² and margin × 64 ÷ size². A float holds these exactly enough: equal
    # fractions give the same correctly rounded float, so ties stay ties.
    scaled_score = models.FloatField()
    scaled_margin = models.FloatField()
    finished_at = models.DateTimeField()
    best = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "month", "difficulty"],
                                    condition=models.Q(best=True),
                                    name="rankings_daily_one_best"),
        ]
        indexes = [
            models.Index(fields=["month", "difficulty", "-scaled_score", "-scaled_margin",
                                 "finished_at", "id"],
                         condition=models.Q(best=True), name="rankings_daily_board"),
            models.Index(fields=["user", "month", "difficulty"], name="rankings_daily_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.day} {self.difficulty}: {self.scaled_score:.1f}"
