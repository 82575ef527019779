from django.contrib import admin

from .models import Challenge, Game, RatingChange, Turn


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "size", "blue", "orange", "status", "winner", "ply",
                    "created_at")
    list_filter = ("status", "kind", "size")
    search_fields = ("id", "blue__username", "orange__username")


admin.site.register(Turn)
admin.site.register(Challenge)
admin.site.register(RatingChange)
