from django.contrib import admin

from .models import BotRatingChange, RatingChange


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("game", "user", "before", "after", "created_at")
    search_fields = ("user__username", "game__id")


@admin.register(BotRatingChange)
class BotRatingChangeAdmin(admin.ModelAdmin):
    list_display = ("game", "user", "level", "before", "after", "created_at")
    search_fields = ("user__username", "game__id")
