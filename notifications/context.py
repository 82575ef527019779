"""The header's bell: a member's unread count on every page (one indexed count)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from .inbox import unread_count


def bell(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"bell_unread": unread_count(user.pk)}
