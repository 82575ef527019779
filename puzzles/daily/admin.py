"""The Daily Challenge in the admin: its games (with the action that voids every selected
in-progress ranked game whose rules or CargoBot changed, for staff with the change
permission) and the log of voids, shown read-only (the Challenge's services write them; a
guest's session key is not shown)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from common.admin_views import ReadOnlyAdmin

from . import services
from .models import DailyGame, DailyVoid


@admin.register(DailyGame)
class DailyGameAdmin(ReadOnlyAdmin):
    list_display = ("day", "difficulty", "ranked", "voided", "user", "game", "created_at")
    list_filter = ("ranked", "voided", "difficulty", "day")
    search_fields = ("user__username", "game__id")
    raw_id_fields = ("game", "user")
    exclude = ("guest_key",)
    actions = ["void_outdated"]

    @admin.action(description="Void the selected in-progress ranked games whose rules or "
                              "CargoBot changed", permissions=["void"])
    def void_outdated(self, request: HttpRequest, queryset: QuerySet[DailyGame]) -> None:
        report = services.void_outdated(queryset, by=request.user.pk)
        level = messages.SUCCESS if report.voided and not report.skipped else \
            messages.INFO if report.voided else messages.WARNING
        messages.add_message(request, level, report.message())


@admin.register(DailyVoid)
class DailyVoidAdmin(ReadOnlyAdmin):
    list_display = ("daily", "source", "by", "reason", "created_at")
    list_filter = ("source",)
    readonly_fields = ("daily", "by", "source", "reason", "created_at")
