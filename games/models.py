"""Live games: a game is its start plus its turns (`Turn`, unique per game and ply);
`Game.position`, `ply` and `tokens` cache the replay. Seeks and challenge links make games;
`RatingChange` keeps each rated game's Elo history, `BotRatingChange` the vs CargoBot
rating's history (docs/bot-games.md)."""

import secrets
import string

from django.conf import settings
from django.db import models

BASE62 = string.digits + string.ascii_letters
ID_LENGTH = 10
SIDES = ("blue", "orange")


def new_id() -> str:
    """A short unguessable id: 10 base62 characters from `secrets` (about 59.5 bits)."""
    return "".join(secrets.choice(BASE62) for _ in range(ID_LENGTH))


class Game(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human"
        BOT = "bot"
        DAILY = "daily"

    class Status(models.TextChoices):
        ACTIVE = "active"
        FINISHED = "finished"

    class BotLevel(models.TextChoices):
        EASY = "easy"
        MEDIUM = "medium"
        HARD = "hard"

    SIDE_CHOICES = [(s, s) for s in SIDES]

    id = models.CharField(primary_key=True, max_length=ID_LENGTH, default=new_id, editable=False)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.HUMAN)
    rated = models.BooleanField(default=True)
    size = models.PositiveSmallIntegerField()
    rules = models.CharField(max_length=8, default="0.92")
    start = models.CharField(max_length=200)  # the start position, in the notation
    blue = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="games_as_blue",
    )
    orange = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="games_as_orange",
    )
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, null=True, blank=True)
    bot_side = models.CharField(max_length=6, choices=SIDE_CHOICES, null=True, blank=True)
    guest_key = models.CharField(max_length=64, null=True, blank=True, db_index=True)
    # CargoBot games: the seed of the bot's choices (fixed at creation, so a retried task
    # chooses the same turn), and since when the game has waited on the bot (None when it
    # is not the bot's turn); the sweep re-enqueues games that waited too long.
    bot_seed = models.BigIntegerField(null=True, blank=True)
    bot_waiting_since = models.DateTimeField(null=True, blank=True, db_index=True)

    # The cache of replaying the turns.
    position = models.CharField(max_length=200)
    ply = models.PositiveIntegerField(default=0)
    tokens = models.JSONField(default=list)

    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.ACTIVE, db_index=True
    )
    winner = models.CharField(max_length=6, choices=SIDE_CHOICES, null=True, blank=True)
    score_blue = models.IntegerField(null=True, blank=True)
    score_orange = models.IntegerField(null=True, blank=True)
    resigned = models.CharField(max_length=6, choices=SIDE_CHOICES, null=True, blank=True)

    rematch_offered_by = models.CharField(
        max_length=6, choices=SIDE_CHOICES, null=True, blank=True
    )
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )

    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["-created_at"])]

    def __str__(self) -> str:
        return f"{self.id} ({self.size}×{self.size}, {self.status})"

    @property
    def is_over(self) -> bool:
        return self.status == self.Status.FINISHED

    def user_of(self, side: str):
        return self.blue if side == "blue" else self.orange

    @property
    def human_side(self) -> str | None:
        """In a game against CargoBot, the side the person plays."""
        if not self.bot_side:
            return None
        return "orange" if self.bot_side == "blue" else "blue"

    def side_of(self, user) -> str | None:
        """The side a signed-in user (or, in a game against CargoBot, the guest whose
        browser session made it: `games.guests.Guest`) plays in this game, or None."""
        if user is None:
            return None
        if not user.is_authenticated:
            key = getattr(user, "guest_key", None)
            if key and self.guest_key == key:
                return self.human_side
            return None
        if self.blue_id == user.pk:
            return "blue"
        if self.orange_id == user.pk:
            return "orange"
        return None


class Turn(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    ply = models.PositiveIntegerField()
    token = models.CharField(max_length=32)
    side = models.CharField(max_length=6, choices=Game.SIDE_CHOICES)
    events = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="turn_unique_game_ply")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} {self.ply}. {self.token}"


class Challenge(models.Model):
    """A seek in the lobby (`public`) or a challenge by link: the first other signed-in
    player to accept it starts a game."""

    class Status(models.TextChoices):
        OPEN = "open"
        ACCEPTED = "accepted"
        CANCELLED = "cancelled"

    class Color(models.TextChoices):
        RANDOM = "random"
        BLUE = "blue"
        ORANGE = "orange"

    id = models.CharField(primary_key=True, max_length=ID_LENGTH, default=new_id, editable=False)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges"
    )
    public = models.BooleanField(default=True)
    size = models.PositiveSmallIntegerField(default=6)
    rules = models.CharField(max_length=8, default="0.92")
    color = models.CharField(max_length=6, choices=Color.choices, default=Color.RANDOM)
    status = models.CharField(
        max_length=9, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.id} by {self.creator} ({self.status})"


class RatingChange(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    before = models.IntegerField()
    after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_once")
        ]

    @property
    def delta(self) -> int:
        return self.after - self.before


class BotRatingChange(models.Model):
    """One finished casual game against CargoBot: the member's vs CargoBot rating before and
    after, against the level's fixed rating (`games.services.BOT_RATINGS`)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="bot_rating_change")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_rating_changes"
    )
    level = models.CharField(max_length=8, choices=Game.BotLevel.choices)
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
