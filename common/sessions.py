"""A signed-in session made on the server side, for the load scripts' setup commands
(games' `load_setup`, tournaments' `arena_load_setup`): the key a scripted player sends
as its `sessionid` cookie."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore


def signed_in_session(user: Any) -> str:
    """A new session in which `user` is signed in; its key (the `sessionid` cookie)."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    assert session.session_key is not None
    return session.session_key
