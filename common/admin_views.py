"""What the admin may do with rows the site's services own (a game, its turns and seats,
a challenge, a rating and its history, a Daily Challenge row and its voids): show them,
never add, edit or delete them there, since each is written by one service (a game ends
through games/turns/finish.py, a rating only in rankings/ratings.py). An admin action that
changes such rows names its own permission (`permissions=["void"]`), granted by the
model's change permission: staff who may only view never see it."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown to those with the view (or change) permission; added, edited and deleted by
    no one, superusers included."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_void_permission(self, request: HttpRequest) -> bool:
        """The right to run the model's voiding action: its change permission."""
        opts = self.opts
        return request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}")
