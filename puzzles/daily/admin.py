"""The Daily Challenge in the admin: its games (with the action that voids every selected
in-progress ranked game whose rules or CargoBot changed) and the log of voids."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from . import services
from .models import DailyGame, DailyVoid


@admin.register(DailyGame)
class DailyGameAdmin(admin.ModelAdmin):
    list_display = ("day", "difficulty", "ranked", "voided", "user", "game", "created_at")
    list_filter = ("ranked", "voided", "difficulty", "day")
    search_fields = ("user__username", "game__id")
    raw_id_fields = ("game", "user")
    actions = ["void_outdated"]

    @admin.action(description="Void the selected in-progress ranked games whose rules or "
                              "CargoBot changed")
    def void_outdated(self, request: HttpRequest, queryset: QuerySet[DailyGame]) -> None:
        count = services.void_outdated(queryset, by=request.user.pk)
        messages.info(request, f"Voided {count} game(s); their players may start a new "
                               "ranked game today.")


@admin.register(DailyVoid)
class DailyVoidAdmin(admin.ModelAdmin):
    list_display = ("daily", "source", "by", "reason", "created_at")
    list_filter = ("source",)
    readonly_fields = ("daily", "by", "source", "reason", "created_at")
