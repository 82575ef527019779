"""Ratings and their history. `Rating`: a member's rating per game type and rating system,
the one place a rating is kept. History: one row per member per rated game (online: Elo or
OpenSkill, by the game's kind; the vs CargoBot rating against CargoBot), written by
`rankings.ratings` in the transaction that records the result, deleted when the game is
voided (its change taken back). A history row's game type is its game's (`game.game_type`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .elo import START_RATING


class Rating(models.Model):
    """A member's rating in one game type (`GameKind.key`, e.g. Cargo Connect's) and one
    rating system (`system`): "elo" (rated online games, two seats), "openskill" (rated
    online games of 2-4 seats, OpenSkill's Plackett-Luce: `mu` and `sigma` are its numbers,
    `value` the displayed rating derived from them, docs/ratings.md) or "vs_cargobot"
    (casual games against CargoBot). `games` counts the games that moved it. Only
    `rankings.ratings` writes it; a missing row is the start rating with no games."""

    class System(models.TextChoices):
        ELO = "elo", "Elo rating"
        OPENSKILL = "openskill", "Rating"
        VS_CARGOBOT = "vs_cargobot", "vs CargoBot rating"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    game_type = models.CharField(max_length=32)
    system = models.CharField(max_length=12, choices=System.choices)
    value = models.IntegerField(default=START_RATING)
    games = models.PositiveIntegerField(default=0)
    mu = models.FloatField(null=True, blank=True)  # OpenSkill only
    sigma = models.FloatField(null=True, blank=True)  # OpenSkill only

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game_type", "system"],
                                    name="rankings_rating_once"),
        ]
        indexes = [
            # the boards: one type's one system, best first (rankings.boards)
            models.Index(fields=["game_type", "system", "-value"], name="rankings_rating_board"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.game_type} {self.system}: {self.value}"


class RatingChange(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE,
                             related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    before = models.IntegerField()
    after = models.IntegerField()
    # An OpenSkill game's numbers before and after (before/after are the displayed ratings);
    # None for Elo. Voiding puts back the change in mu and sigma by its size, as Elo's.
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)
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
