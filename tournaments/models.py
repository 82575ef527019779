"""A tournament's rows (issue #46; docs/tournaments.md, "The Swiss tournament on the
site"; docs/tournaments-arena.md, "On the site"). Written only by `tournaments.services`,
`tournaments.rounds` and `tournaments.arenas`; the admin shows them
(`common.admin_views.ReadOnlyAdmin`).

- `Tournament`: what was announced (game, rounds, time control, rated, password, seats per
  table) and where it stands (`status`).
- `Entry`: a member in a tournament: when they joined (and from which round they are
  paired), when they withdrew, their rating at entry, their absences, their points so far.
- `Round`: a round of a tournament, started once (unique per tournament and number).
- `Table`: one game of a round (a board of Cargo Connect, a table of three or four of Cargo
  Express), or one entrant's bye; `Sitting`: an entrant at a table, in seat order.
- `Pairing`: one game of an arena (two entrants, who berserked, a forfeit), made with its
  game in one transaction by `tournaments.arenas`.

Standings are never stored as such: `Entry.points` is kept round by round so that the
standings recomputed from the stored games (`tournaments.standings`) can be compared with it.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models

from games.models import new_id


class Tournament(models.Model):
    """A tournament: announced as `scheduled`, `running` from its first round, `finished`
    after its last (or when too few remain to pair), `cancelled` when it never could start.
    `time_control` is a `games.timing.clocks` code: "" untimed, "5+3" live, "3d" days per
    decision (a correspondence Swiss: a round ends when its games end or time out).
    `table_size` is the seats at a table: 2 for two-seat kinds (Cargo Connect), 3 or 4 for
    kinds of more seats (Cargo Express; tables of 3 at least,
    `tournaments.swiss.express_tables.table_sizes`). `password` is Django's hash
    (`make_password`) of a private tournament's password, "" for a public one.
    `bots_allowed` is never true for a rated tournament: it lets BOT accounts enter (members
    playing through the API, `games.titles`; issue #47), whom every other tournament bars.
    An arena (`system` "arena", two seats, a live time control) has no rounds (`rounds` 0)
    but a `duration` in minutes from `starts_at`; `berserk` says whether its players may
    berserk (docs/tournaments-arena.md). `round_pause` is a Swiss's pause between rounds, in
    seconds: the next round starts that long after the last game of a round ended (0: at
    once; `tournaments.rounds.next_round_at`)."""

    class System(models.TextChoices):
        SWISS = "swiss", "Swiss"
        ARENA = "arena", "Arena"

    class Status(models.TextChoices):
        SCHEDULED = "scheduled"
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    id = models.CharField(primary_key=True, max_length=10, default=new_id, editable=False)
    name = models.CharField(max_length=80)
    game_type = models.CharField(max_length=24)
    system = models.CharField(max_length=8, choices=System.choices, default=System.SWISS)
    rounds = models.PositiveSmallIntegerField()
    duration = models.PositiveSmallIntegerField(null=True, blank=True)  # an arena's minutes
    berserk = models.BooleanField(default=True)  # an arena's players may berserk
    round_pause = models.PositiveSmallIntegerField(default=60)  # a Swiss's, in seconds
    time_control = models.CharField(max_length=8, blank=True, default="")
    options = models.JSONField(default=dict, blank=True)  # the kind's options for every game
    rated = models.BooleanField(default=True)
    bots_allowed = models.BooleanField(default=False)
    table_size = models.PositiveSmallIntegerField(default=2)
    max_players = models.PositiveSmallIntegerField(default=64)
    password = models.CharField(max_length=128, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices,
                              default=Status.SCHEDULED, db_index=True)
    starts_at = models.DateTimeField(db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL,
                                   related_name="tournaments_created")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(condition=models.Q(rounds__gte=1) | models.Q(system="arena"),
                                   name="tournament_rounds"),
            models.CheckConstraint(condition=~models.Q(system="arena")
                                   | models.Q(duration__gte=1, table_size=2),
                                   name="tournament_arena_duration"),
            models.CheckConstraint(condition=~models.Q(rated=True, bots_allowed=True),
                                   name="tournament_no_bots_when_rated"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.id}, {self.status})"

    @property
    def private(self) -> bool:
        return bool(self.password)

    @property
    def arena(self) -> bool:
        return self.system == self.System.ARENA

    def next_round_at(self, current: Round | None) -> dt.datetime | None:
        """When a Swiss's round after `current` (its latest) is due: `round_pause` after
        `current` finished; None when that is no question now (no round yet: the start
        decides; `current` still being played; every round played; not running)."""
        if current is None or current.finished_at is None or self.arena \
                or current.number >= self.rounds or self.status != self.Status.RUNNING:
            return None
        return current.finished_at + dt.timedelta(seconds=self.round_pause)

    @property
    def ends_at(self) -> dt.datetime | None:
        """An arena's end: no pairing from then on (its games still running count when they
        end). None for a Swiss."""
        if self.duration is None:
            return None
        return self.starts_at + dt.timedelta(minutes=self.duration)


class Entry(models.Model):
    """A member in a tournament. `first_round` is the first round they may be paired in (1,
    or the next round for a late joiner: they score nothing for the rounds before);
    `withdrew_round` the first round they are no longer paired in (None: still in). A
    withdrawn entrant is never paired again; their games still count. `rating` is their
    online rating of the game when they joined, kept fixed (it orders the pairing).
    `absences` counts the rounds lost by forfeit for not starting the game; the second
    withdraws them. `points` is the score after the finished rounds, kept round by round
    (a `Fraction` as text, "7/3": Cargo Express's points are thirds), compared with the
    standings recomputed from the games.

    In an arena (one long round: `first_round` 1, `withdrew_round` 1 once withdrawn)
    `points` is the sheet's total, kept as each game ends (`scoring.Sheet.add`), with
    `streak` (wins in a row: two or more, on fire), `games` (the games counted) and
    `performance_sum` (their `scoring.performance_step`s summed): the standings are
    ranked from these (`arena_standings.ranking`) and equal a recomputation from the
    games (tested); `paused`: not paired until they
    resume; `free_since`: when they last joined or resumed (a game's end is read from the
    game), the wait rule's clock.

    `final_rank`: once the tournament is finished, the entrant's place among those who
    played (`tournaments.results`: shared by level entrants of a Swiss; an arena's podium
    is ranks 1-3); None before, and for an entrant who never played."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="tournament_entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    first_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrew_round = models.PositiveSmallIntegerField(null=True, blank=True)
    rating = models.IntegerField()
    absences = models.PositiveSmallIntegerField(default=0)
    points = models.CharField(max_length=16, default="0")
    streak = models.PositiveSmallIntegerField(default=0)  # an arena's wins in a row
    games = models.PositiveIntegerField(default=0)  # an arena's games counted
    performance_sum = models.IntegerField(default=0)  # an arena's: their performance steps
    paused = models.BooleanField(default=False)  # an arena's: not paired until resumed
    free_since = models.DateTimeField(null=True, blank=True)  # an arena's: joined, resumed
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True)  # once finished

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_once"),
        ]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament_id}"

    @property
    def withdrawn(self) -> bool:
        return self.withdrew_round is not None


class Round(models.Model):
    """A round: its games start together (`started_at`, in one transaction with its
    tables) and it is finished when they have all ended (`finished_at`)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class Table(models.Model):
    """One game of a round, or a bye. `number` is the board (1 the top one; a bye's table
    comes after the games). A bye has no game and one sitting; `bye_points` is what the
    bye scored (Cargo Connect 1, Cargo Express 1/2, as text)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField("games.Game", null=True, blank=True, on_delete=models.PROTECT,
                                related_name="tournament_table")
    bye_points = models.CharField(max_length=8, blank=True, default="")

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_once"),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}" + ("" if self.game_id else " (bye)")

    @property
    def bye(self) -> bool:
        return self.game_id is None


class Sitting(models.Model):
    """An entrant at a table: `seat` is the game's seat index (0 moves first). `round` is
    the table's, kept here so that the database holds the rule "one table a round per
    entrant". `forfeit`: the entrant never started this game (no decision within the
    window, or the game was aborted before their first decision) and lost it by forfeit."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sittings")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="sittings")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="sittings")
    seat = models.PositiveSmallIntegerField()
    forfeit = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="sitting_once_a_round"),
            models.UniqueConstraint(fields=["table", "seat"], name="sitting_seat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} at {self.table} seat {self.seat}"


class Pairing(models.Model):
    """One game of an arena: `blue` in seat 0 (moves first), `orange` in seat 1 (any
    two-seat kind), made in one transaction with its game (`tournaments.arenas`).
    `blue_berserk` / `orange_berserk`: that player gave up half their clock before their
    first move. `forfeit`: the seat that never made its first decision and was resigned by
    the site (the game counts for nobody's sheet). A player is in one game of an arena at a
    time: the pass checks it under the tournament's lock."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="pairings")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT,
                                related_name="arena_pairing")
    blue = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    orange = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    blue_berserk = models.BooleanField(default=False)
    orange_berserk = models.BooleanField(default=False)
    forfeit = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(blue=models.F("orange")),
                                   name="pairing_two_players"),
        ]
        indexes = [models.Index(fields=["tournament", "blue"]),
                   models.Index(fields=["tournament", "orange"])]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.blue_id} v {self.orange_id} ({self.game_id})"

    def entry_ids(self) -> tuple[int, int]:
        return (self.blue_id, self.orange_id)


class Schedule(models.Model):
    """A recurring tournament, set up in the admin: every `every_hours` the beat's tick
    (`tournaments.schedules.create_due`) announces one tournament of these settings at
    `next_at` and moves `next_at` on by the period; it starts `lead_minutes` later, the
    time members have to join. Missed periods (the beat was down) are skipped: only the
    current period's tournament is made. `name` is a pattern: `{date}` (2026-12-06),
    `{time}` (18:00, UTC) and `{n}` (this schedule's count of tournaments, from 1) are
    filled in. The settings are checked by `tournaments.services.check_tournament`, as a
    member's tournament is. An arena (`system` "arena") takes its `duration` and ignores
    `rounds`; a Swiss its `round_pause` (None: `create_tournament`'s default). `made`
    counts the tournaments it created; `last` is the newest."""

    name = models.CharField(max_length=80, help_text="{date}, {time} (UTC) and {n} are "
                            "filled in, e.g. \"Hourly Cargo Connect {time}\"")
    game_type = models.CharField(max_length=24)
    system = models.CharField(max_length=8, choices=Tournament.System.choices,
                              default=Tournament.System.SWISS)
    rounds = models.PositiveSmallIntegerField(default=5, help_text="a Swiss's rounds "
                                              "(an arena's: ignored)")
    duration = models.PositiveSmallIntegerField(null=True, blank=True,
                                                help_text="an arena's minutes (30, 60, 90…)")
    round_pause = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="a Swiss's seconds between rounds, 0 to 600 (empty: "
        "the default, a minute for a live clock, none for correspondence)")
    time_control = models.CharField(max_length=8, blank=True, default="",
                                    help_text="\"\" untimed, \"5+3\" live, \"3d\" days per "
                                    "decision")
    options = models.JSONField(default=dict, blank=True,
                               help_text="the game's options, e.g. {\"size\": 5}")
    rated = models.BooleanField(default=True)
    table_size = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="2 for a two-seat game; 3 or 4 for Cargo Express "
        "(empty: the largest)")
    max_players = models.PositiveSmallIntegerField(default=64)
    every_hours = models.PositiveSmallIntegerField(default=24)
    lead_minutes = models.PositiveSmallIntegerField(
        default=30, help_text="minutes between the announcement and the start")
    next_at = models.DateTimeField(db_index=True,
                                   help_text="when the next tournament is announced")
    active = models.BooleanField(default=True)
    made = models.PositiveIntegerField(default=0, editable=False)
    last = models.ForeignKey(Tournament, null=True, blank=True, editable=False,
                             on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["next_at"]
        constraints = [
            models.CheckConstraint(condition=models.Q(every_hours__gte=1),
                                   name="schedule_every_hour_at_least"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (every {self.every_hours} h)"
