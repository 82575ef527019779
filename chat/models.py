"""The chat's rows: a game's rooms with their message counters, the messages, and the
moderation (mutes, reports, silences). Written only by chat.services (the admin hides
and silences through it)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game

MAX_LENGTH = 140  # characters a message may hold (lichess's limit)


class Room(models.Model):
    """One room of one game: the players' or the spectators'. `last_seq` numbers its
    messages (1, 2, ...): the room's version, which a page catches up from. `moderated`
    numbers its moderators' changes (a message hidden or shown again: 1, 2, ...), which
    the `chat_hidden` / `chat_shown` frames carry, so a page can tell one it missed."""

    class Kind(models.TextChoices):
        PLAYERS = "players"
        SPECTATORS = "spectators"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_rooms")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    last_seq = models.PositiveIntegerField(default=0)
    moderated = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "kind"],
                                               name="chat_one_room_per_kind")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.kind}"


class Message(models.Model):
    """A message said in a room, numbered in it by `seq`. A hidden message (by an admin)
    is shown to no one again."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="messages")
    seq = models.PositiveIntegerField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="chat_messages")
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField()
    hidden = models.BooleanField(default=False)
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "seq"],
                                               name="chat_one_message_per_seq")]
        indexes = [models.Index(fields=["author", "created"], name="chat_author_created")]
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.room} #{self.seq}"


class Mute(models.Model):
    """`muter` no longer sees `muted`'s messages, in any game, until they unmute."""

    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["muter", "muted"],
                                               name="chat_one_mute_per_pair")]


class Report(models.Model):
    """A member reported a message (once per member and message), for the admin."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["message", "reporter"],
                                               name="chat_one_report_per_member")]
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"report of {self.message} by {self.reporter_id}"


class Silence(models.Model):
    """An admin silenced `member` until `until`: they may write in no room meanwhile."""

    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="chat_silences")
    until = models.DateTimeField()
    reason = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-until"]

    def __str__(self) -> str:
        return f"{self.member} silenced until {self.until:%Y-%m-%d %H:%M}"
