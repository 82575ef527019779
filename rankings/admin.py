"""The rating history in the admin, read-only: only rankings.ratings writes it."""

from django.contrib import admin

from common.admin_views import ReadOnlyAdmin

from .models import BotRatingChange, RatingChange


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("game", "user", "before", "after", "created_at")
    search_fields = ("user__username", "game__id")


@admin.register(BotRatingChange)
class BotRatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("game", "user", "level", "before", "after", "created_at")
    search_fields = ("user__username", "game__id")
