"""The admin: games with their seats and turns, challenges, shown read-only (the services
write them); `Void` stops a game through the finish seam (it then counts nowhere), for
staff with the change permission. Neither a bot seed nor a guest's session key is shown
(docs/permissions.md)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from common.admin_views import ReadOnlyAdmin
from games.frames.protocol import GameError
from games.models import Challenge, Game, Seat, Turn
from games.turns.finish import void_game


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "guest", "bot_level", "score", "place", "outcome", "resigned")
    readonly_fields = fields
    can_delete = False

    @admin.display(description="Guest", boolean=True)
    def guest(self, obj: Seat) -> bool:
        return bool(obj.guest_key)  # the key is the guest's session: never shown


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "game_type", "mode", "status", "termination", "ply", "created_at")
    list_filter = ("status", "mode", "game_type", "termination")
    search_fields = ("id", "seats__user__username")
    inlines = [SeatInline]
    exclude = ("bot_seed",)  # the Daily Challenge's seed of the day, for one
    actions = ["void_selected"]

    @admin.action(description="Void the selected games (they count nowhere)",
                  permissions=["void"])
    def void_selected(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        done = 0
        for game in queryset:
            try:
                void_game(game.id, f"voided from the admin by {request.user}")
                done += 1
            except GameError as e:
                self.message_user(request, f"{game.id}: {e.message}", messages.WARNING)
        self.message_user(request, f"Voided {done} game(s).")


admin.site.register(Turn, ReadOnlyAdmin)
admin.site.register(Challenge, ReadOnlyAdmin)
