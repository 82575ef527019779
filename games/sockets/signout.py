"""Closing a member's sockets when their session ends: sign-out, a password change (which
signs out every other session) and deactivation.

Receivers of Django's signals send `session.check` to the member's `sockets.<id>` group
(games/frames/broadcast.py); each of their sockets then reads its session afresh and closes if it
no longer holds (games/sockets/runtime.py). A sign-out names the session that ended, so its
sockets close at once. The check is not the only guard: every turn and resign checks the
session too, so a socket the message missed (Redis down) still cannot act.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save

from games.frames.broadcast import send_message, socket_group


def _check_soon(user_id: int, session_key: str | None = None) -> None:
    message: dict[str, Any] = {"type": "session.check", "ended": session_key}
    transaction.on_commit(lambda: send_message(socket_group(user_id), message))


def signed_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None and user.pk is not None:
        key = getattr(getattr(request, "session", None), "session_key", None)
        _check_soon(user.pk, key)


def user_saved(sender: Any, instance: Any, created: bool, update_fields: Any = None,
               **kwargs: Any) -> None:
    """A saved member may have a new password or be deactivated (a sign-in's own save of
    `last_login` changes neither)."""
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    _check_soon(instance.pk)


def connect_signals() -> None:
    user_logged_out.connect(signed_out, dispatch_uid="games.sockets.signout.signed_out")
    post_save.connect(user_saved, sender=get_user_model(),
                      dispatch_uid="games.sockets.signout.user_saved")
