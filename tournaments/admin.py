"""Tournaments and their entries in the admin, read-only: only `tournaments.services` and
`tournaments.rounds` write them (a tournament is created by `create_tournament`, moved on
by the beat's tick). The one action, "start now", moves a scheduled tournament's start to
now (`services.start_now`): the tick does the rest. Recurring tournaments (`Schedule`) are
edited here, by staff with the model's permissions, their settings checked by the
tournaments' own rules (`tournaments.schedules.check_schedule`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from common.admin_views import ReadOnlyAdmin
from games.kinds import all_kinds

from . import schedules, services
from .models import Entry, Pairing, Schedule, Tournament


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("id", "name", "game_type", "system", "rounds", "duration", "time_control",
                    "rated",
                    "status", "starts_at", "created_by")
    list_filter = ("status", "game_type", "system", "rated")
    search_fields = ("id", "name", "created_by__username")
    exclude = ("password",)  # a hash: nothing for the admin to read
    actions = ["start_now"]

    def has_start_permission(self, request: HttpRequest) -> bool:
        """The right to start a tournament now: the model's change permission."""
        return self.has_void_permission(request)

    @admin.action(description="Start the selected tournaments (or their next round) now",
                  permissions=["start"])
    def start_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        moved = sum(services.start_now(t) for t in queryset)
        self.message_user(request, f"{moved} tournament(s) start now: a scheduled one's "
                          "round 1 at the next tick (within 15 s), or it is cancelled with "
                          "too few players; a Swiss between rounds starts its next round "
                          "at once; those playing a round or over are unchanged.",
                          messages.SUCCESS)


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "user", "rating", "points", "streak", "paused", "absences",
                    "first_round", "withdrew_round", "joined_at")
    search_fields = ("user__username", "tournament__id", "tournament__name")


@admin.register(Pairing)
class PairingAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "game", "blue", "orange", "blue_berserk", "orange_berserk",
                    "forfeit", "created_at")
    search_fields = ("tournament__id", "tournament__name", "game__id")


class ScheduleForm(forms.ModelForm):
    game_type = forms.ChoiceField(choices=())

    class Meta:
        model = Schedule
        fields = ("name", "game_type", "system", "rounds", "duration", "round_pause",
                  "time_control", "options",
                  "rated", "table_size", "max_players", "every_hours", "lead_minutes",
                  "next_at", "active")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["game_type"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(k.key, k.name) for k in all_kinds()]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            fields = schedules.check_schedule(
                name=data["name"], game_type=data["game_type"], system=data["system"],
                rounds=data["rounds"], time_control=data.get("time_control") or "",
                rated=data.get("rated", False), max_players=data["max_players"],
                table_size=data.get("table_size"), options=data.get("options") or {},
                every_hours=data["every_hours"], lead_minutes=data["lead_minutes"],
                duration=data.get("duration"), round_pause=data.get("round_pause"))
        except services.TournamentError as e:
            raise forms.ValidationError(str(e)) from None
        for key in ("game_type", "time_control", "options", "table_size", "rounds",
                    "duration"):
            data[key] = fields[key]
        return data


@admin.register(Schedule)
class ScheduleAdmin(admin.ModelAdmin):
    form = ScheduleForm
    list_display = ("name", "game_type", "system", "rounds", "duration", "time_control",
                    "rated", "every_hours",
                    "next_at", "active", "made", "last")
    list_filter = ("active", "game_type", "system")
    readonly_fields = ("made", "last")
