"""A member's row beside Django's user (one per user, made on first need), and the profile's
per-game facts and achievements. A member's ratings are `rankings.models.Rating` rows, one
per game type and rating system, written only by `rankings.ratings`."""

from django.conf import settings
from django.db import models

from rankings.elo import START_RATING


class Player(models.Model):
    """A member's row beside Django's user. It holds no rating: `rating`, `rated_games`,
    `bot_rating` and `bot_games` read Cargo Connect's `Rating` rows (the one place a rating
    is kept) for the callers that ask a player for them, one query each.

    `bot_since`: when the account became a BOT account (lichess's name: a program playing
    through the API, marked "BOT" before its name everywhere; issue #47, docs/api.md), None
    for a person. Set once by `accounts.bots.mark` (the API's upgrade), never cleared."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    bot_since = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user} ({self.rating})"

    def _default_game(self, system: str) -> tuple[int, int]:
        """(rating, games) of this rating system in the default game (DEFAULT_GAME_KIND)."""
        from rankings.models import Rating

        row = (Rating.objects.filter(user_id=self.user_id, game_type=settings.DEFAULT_GAME_KIND,
                                     system=system)
               .values_list("value", "games").first())
        return row if row is not None else (START_RATING, 0)

    @property
    def rating(self) -> int:
        """The default game's Elo rating (Cargo Connect's)."""
        return self._default_game("elo")[0]

    @property
    def rated_games(self) -> int:
        return self._default_game("elo")[1]

    @property
    def bot_rating(self) -> int:
        """The default game's vs-bot rating (Cargo Connect's vs CargoBot, docs/bot-games.md)."""
        return self._default_game("vs_cargobot")[0]

    @property
    def bot_games(self) -> int:
        return self._default_game("vs_cargobot")[1]


class GameStats(models.Model):
    """One member's facts from one finished game that counts for profiles (online or
    casual vs CargoBot; never the Daily Challenge, never puzzles): the result, the opponent,
    and what the game's stored events say (shapes unloaded, chits, the Final Audit's Rust,
    cards played). Written once per game and member after the result commits
    (`accounts.stats`), deleted when the game is voided. The profile, the streaks and the
    achievements read this table, never a replay."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="player_stats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="game_stats")
    seat = models.PositiveSmallIntegerField()
    mode = models.CharField(max_length=8)  # Game.Mode.ONLINE or Game.Mode.BOT
    rated = models.BooleanField(default=False)
    size = models.PositiveSmallIntegerField(null=True, blank=True)
    # The other seat: a member, a CargoBot level, or neither (a guest).
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    opponent_bot = models.CharField(max_length=8, blank=True, default="")
    outcome = models.CharField(max_length=4)  # games.models.Seat.Outcome
    score = models.IntegerField()
    opponent_score = models.IntegerField(null=True, blank=True)
    resigned = models.BooleanField(default=False)
    opponent_resigned = models.BooleanField(default=False)
    termination = models.CharField(max_length=10)
    finished_at = models.DateTimeField()
    day = models.DateField()  # the Pacific day of finished_at (common.timezones)

    # From the events: AppCons unloaded by shape, chits, the audit's Rust, cards played.
    shape_o = models.PositiveSmallIntegerField(default=0)
    shape_t = models.PositiveSmallIntegerField(default=0)
    shape_j = models.PositiveSmallIntegerField(default=0)
    shape_l = models.PositiveSmallIntegerField(default=0)
    shape_s = models.PositiveSmallIntegerField(default=0)
    shape_z = models.PositiveSmallIntegerField(default=0)
    shape_i = models.PositiveSmallIntegerField(default=0)
    unloads = models.PositiveSmallIntegerField(default=0)
    gold_chits = models.PositiveSmallIntegerField(default=0)
    steel_chits = models.PositiveSmallIntegerField(default=0)
    rust = models.PositiveSmallIntegerField(default=0)  # Rust chits left at the audit
    perfect = models.BooleanField(default=False)  # no Rust penalty at the Final Audit
    card_s = models.PositiveSmallIntegerField(default=0)
    card_l = models.PositiveSmallIntegerField(default=0)
    card_p = models.PositiveSmallIntegerField(default=0)
    card_d = models.PositiveSmallIntegerField(default=0)
    card_r = models.PositiveSmallIntegerField(default=0)
    # The member's last unload came in a turn that re-routed one of its four cores.
    reroute_finish = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="accounts_game_stats_once"),
        ]
        indexes = [
            models.Index(fields=["user", "finished_at"], name="accounts_stats_user_time"),
            models.Index(fields=["user", "opponent"], name="accounts_stats_user_opp"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.game_id}: {self.outcome} {self.score}"

    def shape_count(self, shape: str) -> int:
        return int(getattr(self, f"shape_{shape.lower()}"))

    def card_count(self, card: str) -> int:
        return int(getattr(self, f"card_{card.lower()}"))


class SeatStats(models.Model):
    """One member's facts from one finished online game of a kind other than Cargo Connect
    (whose facts are `GameStats`): Cargo Express now. The seat count, the place (1 = first;
    shared places possible), the score, and the kind's tallies of what the seat chose
    (`GameKind.seat_summary`: `{"character": {"Logistician": 4, ...}}`). Written once per
    game and member after the result commits (`accounts.stats`), deleted when the game is
    voided; the profile reads this table, never a replay."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="seat_stats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="seat_stats")
    game_type = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField()
    seat_count = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(default=0)
    resigned = models.BooleanField(default=False)
    tallies = models.JSONField(default=dict)
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="accounts_seat_stats_once"),
        ]
        indexes = [
            models.Index(fields=["user", "game_type"], name="accounts_seatstats_user_type"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.game_id}: place {self.place} of {self.seat_count}"


class EarnedAchievement(models.Model):
    """An achievement (`accounts.achievements.ACHIEVEMENTS`, by key) a member earned, with
    the game that earned it. At most one per member and key: the unique constraint makes
    two games finishing at once award it once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="achievements")
    key = models.CharField(max_length=32)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    earned_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="accounts_achievement_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.key}"
