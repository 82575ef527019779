"""A socket's session checked inside the turn's write (`SessionGuard`'s SQL), and
`now_for`.

Fast path (docs/fast-path.md, "games/fast/guard.py"): replaces
`session_signed_in` read before each turn (Django's session store and
`django.contrib.auth.get_user`: one more query and thread hop a turn) by conditions of the
turn's UPDATE: `EXISTS (SELECT 1 FROM django_session WHERE session_key = %s AND expire_date
> %s)` and, for a member, `EXISTS (SELECT 1 FROM auth_user WHERE id = %s AND is_active = %s
AND password = %s)`. A write they refuse takes the locked path, which asks the full
`SessionGuard.holds()`. `now_for` replaces `DateTimeField.get_db_prep_save(now,
connection)` for the session's expiry and the turn's `created_at`: on PostgreSQL an aware
datetime goes as it is. Relies on Django 5.2.19's session table (`session_key`,
`expire_date`) of the `db` and `cached_db` engines and user table (`id`, `is_active`,
`password`), sign-out deleting the session row and a password change changing the hash.
Measured: the guard not alone (it came with #18's pieces); `now_for`: the context-local
look-up "was 1–1.5 % a call, three calls a turn" (py-spy, 2026-12-02), in the f0394c5 runs
not alone. Off (`LIVE_FAST_PATH=0`) `in_sql` is false: `holds()` runs before each write.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Field
from django.utils import timezone

from games.fast import enabled, loopdb

if TYPE_CHECKING:
    from games.actors import SessionGuard

SQL_ENGINES = ("django.contrib.sessions.backends.db",
               "django.contrib.sessions.backends.cached_db")


def in_sql(guard: SessionGuard) -> bool:
    """Can `guard`'s session be checked by the write? (The fast path on, a session, and a
    session engine that keeps it in the database.)"""
    return enabled() and guard.session_key is not None \
        and settings.SESSION_ENGINE in SQL_ENGINES


def sql(guard: SessionGuard) -> tuple[tuple[str, ...], list[Any]]:
    """WHERE conditions (and their parameters) that hold while `guard`'s session does."""
    params: list[Any] = [guard.session_key, now_for("sessions.Session", "expire_date")]
    if guard.user_id is not None:
        params += [guard.user_id, True, guard.password]
    return _guard_clauses(guard.user_id is not None), params


def now_for(model: str, name: str) -> Any:
    """Now, as the column `name` of `model` ("app.Model") takes it. PostgreSQL takes an
    aware datetime as it is, and Django's connection is not looked up for it: on the event
    loop that look-up (a context-local) cost more than the rest of the value."""
    now = timezone.now()
    if loopdb.on_postgresql():
        return now
    return _field(model, name).get_db_prep_save(now, connections[DEFAULT_DB_ALIAS])


@functools.cache
def _field(model: str, name: str) -> Field:
    """A model's field, looked up once (the turn's write asks at every turn)."""
    f = apps.get_model(model)._meta.get_field(name)
    assert isinstance(f, Field)
    return f


@functools.cache
def _guard_clauses(member: bool) -> tuple[str, ...]:
    """The text of `sql`'s conditions (a member's adds their user row)."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session
    from django.db import connection

    quote = connection.ops.quote_name
    clauses = [f"EXISTS (SELECT 1 FROM {quote(Session._meta.db_table)} WHERE "
               f"session_key = %s AND expire_date > %s)"]
    if member:
        clauses.append(f"EXISTS (SELECT 1 FROM {quote(get_user_model()._meta.db_table)} "
                       f"WHERE id = %s AND is_active = %s AND password = %s)")
    return tuple(clauses)
