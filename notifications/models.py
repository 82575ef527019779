"""A member's notifications, their choices, the deadline alarms already sent and the
browsers they subscribed to web push."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn", "Your turn (correspondence games)"
    CHALLENGE = "challenge", "Challenge accepted"
    TABLE_INVITE = "table_invite", "Someone joined your table"
    GAME_ENDED = "game_ended", "Game ended"
    REMATCH_OFFERED = "rematch_offered", "Rematch offered"
    TOURNAMENT_ROUND = "tournament_round", "A tournament round started"
    CHALLENGED = "challenged", "A challenge to you"


ALL_KINDS = [k.value for k in Kind]


class Notification(models.Model):
    """One event for one member. Its text says only public facts ("Your turn in Cargo
    Express with alice, bob"); `in_site` is whether the member's choices show it in the
    site (a row only the digest would list has it False). Ids rise: a page knows the last
    one it was told of. A member has at most one unread "your turn" per game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")
    text = models.CharField(max_length=200)
    url = models.CharField(max_length=200, blank=True, default="")
    in_site = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "read_at"], name="notif_user_unread")]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game"], condition=Q(kind="your_turn", read_at__isnull=True),
                name="notif_one_unread_turn_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.text}"


def default_in_site() -> list[str]:
    return list(ALL_KINDS)


def default_by_email() -> list[str]:
    return [Kind.YOUR_TURN.value, Kind.CHALLENGE.value, Kind.REMATCH_OFFERED.value,
            Kind.CHALLENGED.value]


def default_by_push() -> list[str]:
    return list(ALL_KINDS)


class NotificationSettings(models.Model):
    """A member's choices: which kinds show in the site, which the daily digest lists,
    which are pushed to the browsers they subscribed (push itself is opt-in per browser:
    `PushSubscription`), the digest and the deadline alarm (both emails are opt-in: off
    until the member turns them on). `digest_sent_on` is the day (UTC) of the last digest:
    at most one a day; `digest_last_id` the newest notification a digest listed, so the
    next one never lists it again."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_settings")
    in_site = models.JSONField(default=default_in_site)
    by_email = models.JSONField(default=default_by_email)
    digest = models.BooleanField(default=False)
    alarm = models.BooleanField(default=False)
    digest_sent_on = models.DateField(null=True, blank=True)
    digest_last_id = models.BigIntegerField(default=0)
    by_push = models.JSONField(default=default_by_push)

    def __str__(self) -> str:
        return f"notification settings of {self.user_id}"


class PushSubscription(models.Model):
    """One browser a member subscribed to web push (the Push API's subscription: the push
    service's `endpoint` and the browser's keys for the encryption, RFC 8291). An endpoint
    is one member's: another member's request with it is refused (notifications/push.py),
    never moved. The push
    service answering 404 or 410 (gone) deletes the row; other failures are noted."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="push_subscriptions")
    endpoint = models.URLField(max_length=500, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    created = models.DateTimeField(auto_now_add=True)
    last_success = models.DateTimeField(null=True, blank=True)
    last_failure = models.DateTimeField(null=True, blank=True)
    failure = models.CharField(max_length=200, blank=True, default="")

    def __str__(self) -> str:
        return f"push to {self.user_id} at {self.endpoint[:60]}"


class DeadlineAlarm(models.Model):
    """One alarm email sent to a member for one decision of one game: the decision is
    named by its deadline, which every new decision moves."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    deadline = models.DateTimeField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game", "deadline"],
                                               name="alarm_once_per_decision")]

    def __str__(self) -> str:
        return f"alarm for {self.user_id} in {self.game_id} at {self.deadline:%Y-%m-%d %H:%M}"
