"""The admin: games with their seats and turns, challenges; `Void` stops a game through the
finish seam (it then counts nowhere)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from .finish import void_game
from .models import Challenge, Game, Seat, Turn
from .protocol import GameError


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "guest_key", "bot_level", "score", "place", "outcome", "resigned")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "game_type", "mode", "status", "termination", "ply", "created_at")
    list_filter = ("status", "mode", "game_type", "termination")
    search_fields = ("id", "seats__user__username")
    inlines = [SeatInline]
    actions = ["void_selected"]

    @admin.action(description="Void the selected games (they count nowhere)")
    def void_selected(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        done = 0
        for game in queryset:
            try:
                void_game(game.id, f"voided from the admin by {request.user}")
                done += 1
            except GameError as e:
                self.message_user(request, f"{game.id}: {e.message}", messages.WARNING)
        self.message_user(request, f"Voided {done} game(s).")


admin.site.register(Turn)
admin.site.register(Challenge)
