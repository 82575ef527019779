"""Games, their seats and decisions, and challenges.

A game is its start plus its decisions (`Turn`, unique per game and ply); `Game.position`,
`ply` and `tokens` cache the replay. A game has N seats (`Seat`: Cargo Connect 2, Blue and
Orange being seats 0 and 1; Cargo Express 2–4), each held by a member, a guest (by browser
session) or a bot at a level, with its score and place once the game ends. `game_type` names
the game kind (`games.kinds`) that decides every rule. Challenges (lobby seeks and links)
make games. Ratings live in `rankings`. A game's clocks (`time_control`, `clock`,
`clock_since`, `flag_at`) are kept on its row and written in the same UPDATE as its turns
(games.timing.clocks, docs/clocks.md).
"""

from __future__ import annotations

import secrets
import string
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models

from games.kinds import GameKind, get_kind

if TYPE_CHECKING:
    from django.contrib.auth.models import User

BASE62 = string.digits + string.ascii_letters
ID_LENGTH = 10


def new_id() -> str:
    """A short unguessable id: 10 base62 characters from `secrets` (about 59.5 bits)."""
    return "".join(secrets.choice(BASE62) for _ in range(ID_LENGTH))


def default_game_type() -> str:
    """A game's or a table's kind when none is named: the default game's (a setting,
    DEFAULT_GAME_KIND; games.kinds.default_kind)."""
    return str(settings.DEFAULT_GAME_KIND)


class Game(models.Model):
    class Mode(models.TextChoices):
        ONLINE = "online"  # people against people, by seek or link
        BOT = "bot"  # casual, against CargoBot
        DAILY = "daily"  # the Daily Challenge

    class Status(models.TextChoices):
        ACTIVE = "active"
        FINISHED = "finished"
        VOIDED = "voided"  # stopped by the site; counts nowhere
        ABORTED = "aborted"  # before every seat moved, or every person left a casual table

    class Termination(models.TextChoices):
        PLAYED_OUT = "played_out"  # the rules ended it (Final Audit)
        RESIGNED = "resigned"
        DAY_ENDED = "day_ended"  # resigned for the player when the Daily Challenge's day ended
        TIMED_OUT = "timed_out"  # a clock ran out (games.timing.timeouts)
        ABANDONED = "abandoned"  # a player claimed the win or a draw: the other had left
        ABORTED = "aborted"  # before every seat had moved (games.timing.abandonment)
        VOIDED = "voided"

    id = models.CharField(primary_key=True, max_length=ID_LENGTH, default=new_id, editable=False)
    game_type = models.CharField(max_length=24, default=default_game_type)
    mode = models.CharField(max_length=8, choices=Mode.choices, default=Mode.ONLINE)
    rated = models.BooleanField(default=True)
    rules = models.CharField(max_length=8)
    options = models.JSONField(default=dict)  # the kind's options, e.g. {"size": 6}
    start = models.TextField()  # the start position, in the kind's notation

    # Bot seats: the seed of the bots' choices (fixed at creation, so a retried task
    # chooses the same decision) and the version of the bot that plays them; since when
    # the game has waited on a bot (None when no bot is to move); the sweep re-enqueues
    # games that waited too long.
    bot_seed = models.BigIntegerField(null=True, blank=True)
    bot_version = models.CharField(max_length=16, blank=True, default="")
    bot_waiting_since = models.DateTimeField(null=True, blank=True, db_index=True)

    # The cache of replaying the decisions.
    position = models.TextField()
    ply = models.PositiveIntegerField(default=0)
    tokens = models.JSONField(default=list)
    # Bumped by every write of the row (`save`, and the turn's conditional write in
    # games.turns.store): a process's cached copy (games.fast.warm) is current while it matches.
    revision = models.PositiveIntegerField(default=0)
    # How many pre-turns (games.turns.preturns, `PreTurn`) the game's seats have queued, set by
    # `QuerySet.update` (so no revision: nobody else may learn that a seat queued) under
    # the row lock whenever a queue is stored or goes. The fast path's write requires the
    # count its copy read (games.fast.statements), and leaves a decision that begins a
    # person's turn to the locked path only while a queue exists (games.fast.turns).
    queued_turns = models.PositiveSmallIntegerField(default=0)

    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.ACTIVE, db_index=True
    )
    termination = models.CharField(max_length=10, choices=Termination.choices, blank=True,
                                   default="")
    void_reason = models.CharField(max_length=200, blank=True, default="")

    # The clocks (games.timing.clocks): the time control ("" untimed, "5+3" live, "3d" days per
    # turn); each seat's time left in ms as of its clock's start or stop (None: the seat
    # has no clock, e.g. CargoBot's), the seats that have moved until every one has, the
    # running seats; since when the earliest running clock runs (None: none runs; several
    # may run, each from its own start, `clock["started_ms"]`); when the first falls (the
    # scheduled check's index).
    time_control = models.CharField(max_length=8, blank=True, default="")
    clock = models.JSONField(null=True, blank=True)
    clock_since = models.DateTimeField(null=True, blank=True)
    flag_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The seat that aborted the game or claimed it (games.timing.abandonment).
    ended_by = models.PositiveSmallIntegerField(null=True, blank=True)

    rematch_offered_by = models.PositiveSmallIntegerField(null=True, blank=True)  # a seat
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )

    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["-created_at"])]

    def __str__(self) -> str:
        return f"{self.id} ({self.game_type}, {self.status})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Every save of an existing row is a new revision (the caller holds the row lock,
        so its `revision` is the stored one)."""
        update_fields = kwargs.get("update_fields")
        if not self._state.adding:
            self.revision += 1
            if update_fields is not None:
                kwargs["update_fields"] = [*update_fields, "revision"]
        super().save(*args, **kwargs)

    @property
    def kind(self) -> GameKind:
        return get_kind(self.game_type)

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.ACTIVE

    @property
    def size(self) -> int | None:
        """The bay's size, for games that have one (Cargo Connect)."""
        size = self.options.get("size")
        return int(size) if size is not None else None

    @property
    def seat_list(self) -> list[Seat]:
        """The seats in order, loaded once (prefetched by `games.turns.store`)."""
        cached: list[Seat] | None = getattr(self, "_seat_cache", None)
        if cached is None:
            cached = sorted(self.seats.all(), key=lambda s: s.index)
            self._seat_cache = cached
        return cached

    def set_seats(self, seats: list[Seat]) -> None:
        self._seat_cache = sorted(seats, key=lambda s: s.index)

    def user_at(self, index: int) -> User | None:
        return self.seat_list[index].user

    @property
    def bot_seats(self) -> list[int]:
        """The seats a bot plays: bot seats, and seats a bot took over from a leaver."""
        return [s.index for s in self.seat_list if s.bot_level or s.stand_in]

    @property
    def bot_level(self) -> str | None:
        """The level of the game's bot (the first bot seat's), or None."""
        return next((s.bot_level for s in self.seat_list if s.bot_level), None)

    @property
    def human_seats(self) -> list[int]:
        return [s.index for s in self.seat_list if not s.bot_level]

    @property
    def human_side(self) -> str | None:
        """In a game with bots, the seat key of the (first) person's seat."""
        humans = self.human_seats
        return self.kind.seat_key(humans[0]) if humans and self.bot_seats else None

    @property
    def resigned_seats(self) -> list[int]:
        """The seats out of the kind's game (resigned, or out on time). A seat whose holder
        left and a bot plays on (`Seat.stand_in`) is still in it."""
        return [s.index for s in self.seat_list if s.resigned and not s.stand_in]


class Seat(models.Model):
    """Who holds one seat of a game (exactly one of member, guest or bot level), and how
    that seat ended: score, place (1 = first, ties share), outcome for counting."""

    # Why a holder left (`Seat.left["reason"]`), in words for every page and record.
    LEFT_REASONS = {
        "resigned": "resigned",
        "timed_out": "timed out twice in a row",
        "out_of_time": "ran out of time",
        "away": "left the table and the seat was claimed",
    }

    class Outcome(models.TextChoices):
        WIN = "win"
        DRAW = "draw"
        LOSS = "loss"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="seats",
    )
    guest_key = models.CharField(max_length=64, null=True, blank=True, db_index=True)
    bot_level = models.CharField(max_length=8, null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=4, choices=Outcome.choices, blank=True, default="")
    resigned = models.BooleanField(default=False)
    # The bot level that plays on for a holder who left a game of more than two seats, when
    # the kind hands a leaver's seat to a bot (`GameKind.leaver_stand_in`); the holder stays
    # recorded, takes last place, and no longer acts for the seat.
    stand_in = models.CharField(max_length=8, null=True, blank=True)
    # When and why the holder left (`games.turns.play.leave`): {"ply": the game's ply then,
    # "reason": one of `LEFT_REASONS`, "round": the kind's round then or None}. A fact of
    # the game's record: the pages say "played by ExpressBot Medium since round 4", the
    # places order the leavers by it (`games.turns.finish`). None: the holder never left.
    left = models.JSONField(null=True, blank=True)
    # Presence, for claims in live games (games.timing.abandonment): the holder's open sockets
    # on this game and since when it has had none (None: connected, or not tracked).
    sockets = models.PositiveSmallIntegerField(default=0)
    left_at = models.DateTimeField(null=True, blank=True)
    # Timed-out decisions in a row: each decision the site made for this seat when its clock
    # fell (the kind's `timeout_decision`, games.timing.timeouts) adds one; the seat's own next
    # decision sets it back to 0 (the rule "two timeouts in a row make a leaver" reads it).
    timeouts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_game_index"),
            models.CheckConstraint(
                condition=(
                    models.Q(user__isnull=True, guest_key__isnull=True)
                    | models.Q(user__isnull=True, bot_level__isnull=True)
                    | models.Q(guest_key__isnull=True, bot_level__isnull=True)
                ),
                name="seat_one_holder",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.index}"

    @property
    def playing_level(self) -> str | None:
        """The level of the bot that plays this seat (its own, or a leaver's stand-in)."""
        return self.bot_level or self.stand_in

    def holder_name(self, kind: GameKind) -> str | None:
        """The name pages show for the holder: the bot's (in `kind`'s words), the
        member's, "Guest", or None for an empty seat."""
        if self.bot_level:
            return kind.bot_name(self.bot_level)
        if self.user is not None:
            return self.user.get_username()
        return "Guest" if self.guest_key else None



class Turn(models.Model):
    """One decision of one seat, with the events it caused (all of them: what each viewer
    may see is filtered by the game kind when frames are built)."""

    # No index of its own: the unique (game, ply) index serves every look-up by game, and
    # each turn's INSERT maintains one index fewer (two on PostgreSQL: Django adds a LIKE one).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns",
                             db_index=False)
    ply = models.PositiveIntegerField()
    token = models.CharField(max_length=64)
    seat = models.PositiveSmallIntegerField()
    events = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="turn_unique_game_ply")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} {self.ply}. {self.token}"


class PreTurn(models.Model):
    """A seat's pre-turn (games.turns.preturns): the steps it queued for its next turn, `key`
    naming that turn (`LiveGame.queue_key`). That seat's secret: read only for that seat
    and applied at its turn's reveal, then deleted; never part of a frame to anyone else,
    of the game's record or of its replay."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="preturns")
    seat = models.PositiveSmallIntegerField()
    key = models.CharField(max_length=16)
    steps = models.JSONField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="preturn_unique_game_seat")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.seat} {self.key}"


class Challenge(models.Model):
    """A table (docs/tables.md): a seek in the lobby (`public`) or a challenge by link,
    with `seat_count` seats (from the kind) that people join and leave until the start.
    `creator` is the host. `seat` is the host's seat (None: every seat is drawn at random
    when the table starts; otherwise the seats are as people chose them). The table starts
    when its last seat is taken, or when the host starts it early with bots in the empty
    seats. `time_control` is the game's (games.timing.clocks); a `rated` table takes members
    only and no bots (untimed tables are never rated). `invited`: the member a challenge is
    to (made through the API, issue #47: lichess's challenge to a player), who alone may take
    its one free seat or decline it (`decline_reason`, lichess's words); None for a seek or
    a challenge by link, which anyone with it may take."""

    class Status(models.TextChoices):
        OPEN = "open"
        ACCEPTED = "accepted"  # started: `game` is its game
        CANCELLED = "cancelled"
        DECLINED = "declined"  # the invited member said no

    id = models.CharField(primary_key=True, max_length=ID_LENGTH, default=new_id, editable=False)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges"
    )
    public = models.BooleanField(default=True)
    game_type = models.CharField(max_length=24, default=default_game_type)
    options = models.JSONField(default=dict)
    rules = models.CharField(max_length=8)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    seat_count = models.PositiveSmallIntegerField(default=2)
    rated = models.BooleanField(default=True)
    time_control = models.CharField(max_length=8, blank=True, default="")  # games.timing.clocks
    status = models.CharField(
        max_length=9, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge"
    )
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="challenges_received",
    )
    decline_reason = models.CharField(max_length=16, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.id} by {self.creator} ({self.status})"

    @property
    def kind(self) -> GameKind:
        return get_kind(self.game_type)

    @property
    def size(self) -> int | None:
        size = self.options.get("size")
        return int(size) if size is not None else None

    @property
    def time_control_label(self) -> str:
        from games.timing.clocks import label

        return label(self.time_control)

    @property
    def color(self) -> str:
        """The creator's seat by name, or "random"."""
        return "random" if self.seat is None else self.kind.seat_key(self.seat)

    @property
    def placed(self) -> bool:
        """Are the seats as people chose them (else drawn at random at the start)?"""
        return self.seat is not None

    @property
    def seat_rows(self) -> list[TableSeat]:
        """The table's taken seats in order, loaded once."""
        cached: list[TableSeat] | None = getattr(self, "_table_seats", None)
        if cached is None:
            cached = sorted(self.table_seats.all(), key=lambda s: s.index)
            self._table_seats = cached
        return cached

    def forget_seats(self) -> None:
        """Read the seats again at the next `seat_rows`."""
        self.__dict__.pop("_table_seats", None)


class TableSeat(models.Model):
    """One taken seat of an open table (a `Challenge`): a member, a guest (by browser
    session) or a bot at a level, at `index` (0 … seat_count − 1). The rows stay after
    the start, as the table was."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE,
                                  related_name="table_seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="table_seats",
    )
    guest_key = models.CharField(max_length=64, null=True, blank=True)
    bot_level = models.CharField(max_length=8, null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["challenge", "index"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "index"],
                                    name="tableseat_unique_index"),
            models.UniqueConstraint(fields=["challenge", "user"],
                                    condition=models.Q(user__isnull=False),
                                    name="tableseat_one_per_member"),
            models.UniqueConstraint(fields=["challenge", "guest_key"],
                                    condition=models.Q(guest_key__isnull=False),
                                    name="tableseat_one_per_guest"),
            models.CheckConstraint(
                condition=(
                    models.Q(user__isnull=False, guest_key__isnull=True,
                             bot_level__isnull=True)
                    | models.Q(user__isnull=True, guest_key__isnull=False,
                               bot_level__isnull=True)
                    | models.Q(user__isnull=True, guest_key__isnull=True,
                               bot_level__isnull=False)
                ),
                name="tableseat_one_holder",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenge_id} seat {self.index}"

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None


class GameReview(models.Model):
    """A finished game's review by CargoBot (games.records.review, docs/review.md): one per game,
    made by one Celery run at a time, cached once done. `data` is the kind's review;
    `version` the kind's `review_version` it was made with (another version is stale)."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="review")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    version = models.CharField(max_length=40, blank=True, default="")
    done = models.PositiveIntegerField(default=0)  # turns reviewed so far
    total = models.PositiveIntegerField(default=0)
    data = models.JSONField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True, default="")
    cpu_seconds = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"review of {self.game_id} ({self.status} {self.done}/{self.total})"
