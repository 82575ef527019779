"""Members' ratings in the admin, read-only: only rankings.ratings writes them."""

from django.contrib import admin

from cargosite.admin_views import ReadOnlyAdmin

from .models import Player


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("user", "rating", "rated_games")
    search_fields = ("user__username",)
