from django.contrib import admin

from .models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("user", "rating", "rated_games")
    search_fields = ("user__username",)
