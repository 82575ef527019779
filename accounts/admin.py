"""Members' ratings in the admin, read-only: only rankings.ratings writes them."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from common.admin_views import ReadOnlyAdmin

from .models import Player


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("user", "ratings")
    search_fields = ("user__username",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).select_related("user").prefetch_related(
            "user__ratings")

    @admin.display(description="ratings (rankings.Rating, per game type and system)")
    def ratings(self, player: Player) -> str:
        rows = sorted(player.user.ratings.all(), key=lambda r: (r.game_type, r.system))
        return ", ".join(f"{r.game_type} {r.system} {r.value} ({r.games})" for r in rows) or "-"
