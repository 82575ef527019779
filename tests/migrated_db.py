"""Test databases made from a kept copy of the migrated schema (issue #43).

Django makes each pytest worker's test database by running every migration: 106 of them,
10–13 s a worker on this 2-core machine (the OAuth toolkit's 21 a third of it; most of the
rest Django re-rendering the models' states after each operation). `make test`, each of
CI's three pytest runs and every `-n 2` run paid it again for each worker. Now the
migrations run once for a given set of migration files, and what they made is kept:

- SQLite: a file `.pytest_cache/cargo-migrated/<digest>.sqlite3`, copied into the worker's
  in-memory test database with SQLite's backup API (tens of milliseconds);
- PostgreSQL: a database `cargo_migrated_<digest>` on the server, the TEMPLATE of each
  worker's test database (`CREATE DATABASE … TEMPLATE`, Django's TEST["TEMPLATE"]).

The digest covers every migration file Django's loader finds (ours and the installed
packages'), the installed apps, Django's version and the database's vendor and name: any
change to one of them makes the migrations run again and a new copy kept (on PostgreSQL
the copies of other digests are dropped then). The copy holds the tables and every row
the migrations wrote, with their post_migrate signal's (content types, permissions) and
the django_migrations table, exactly as a migrated database would.

`CARGO_TEST_MIGRATE=1` runs the migrations for each worker and keeps nothing, as before.
Two workers that find no copy both migrate (as before) and one copy is kept: neither
waits for the other, which would leave a core idle.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SQLITE_DIR = ROOT / ".pytest_cache" / "cargo-migrated"
TEMPLATE_PREFIX = "cargo_migrated_"
# Raised when this module's way of making a copy changes, so old copies are not used.
FORMAT = "1"


def wanted() -> bool:
    return os.environ.get("CARGO_TEST_MIGRATE", "").lower() not in ("1", "true", "yes")


def digest(connection: Any) -> str:
    """What the migrated schema depends on: the migration files, the apps, Django, the
    database."""
    import django
    from django.conf import settings
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    parts = [FORMAT, django.get_version(), connection.vendor,
             str(connection.settings_dict.get("NAME")), *settings.INSTALLED_APPS]
    for key in sorted(loader.disk_migrations):
        source = Path(sys.modules[type(loader.disk_migrations[key]).__module__].__file__ or "")
        parts.append(f"{key[0]}.{key[1]}:{hashlib.sha256(source.read_bytes()).hexdigest()}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def create_test_db(self: Any, original: Callable[..., str], verbosity: int = 1,
                   autoclobber: bool = False, serialize: bool = True,
                   keepdb: bool = False) -> str:
    """`BaseDatabaseCreation.create_test_db`, from the kept copy when there is one."""
    vendor = self.connection.vendor
    if keepdb or not wanted() or vendor not in ("sqlite", "postgresql"):
        return original(self, verbosity, autoclobber, serialize, keepdb)
    key = digest(self.connection)
    if vendor == "sqlite":
        return _sqlite(self, original, key, verbosity, autoclobber, serialize)
    return _postgresql(self, original, key, verbosity, autoclobber, serialize)


def _finish(self: Any, name: str, serialize: bool) -> str:
    """The steps of Django's create_test_db after its migrate (Django 5.2)."""
    from django.core.management import call_command

    if serialize:
        self.connection._test_serialized_contents = self.serialize_db_to_string()
    call_command("createcachetable", database=self.connection.alias)
    self.connection.ensure_connection()
    return name


def _use_name(self: Any, name: str) -> None:
    from django.conf import settings

    self.connection.close()
    settings.DATABASES[self.connection.alias]["NAME"] = name
    self.connection.settings_dict["NAME"] = name


# --- SQLite: a file copied in and out with the backup API ----------------------------------

def _sqlite(self: Any, original: Callable[..., str], key: str, verbosity: int,
            autoclobber: bool, serialize: bool) -> str:
    kept = SQLITE_DIR / f"{key}.sqlite3"
    name = self._get_test_db_name()
    if not self.is_in_memory_db(name):  # a file test database: Django's own way
        return original(self, verbosity, autoclobber, serialize, False)
    if kept.exists():
        self._create_test_db(verbosity, autoclobber, False)
        _use_name(self, name)
        self.connection.ensure_connection()
        source = sqlite3.connect(kept)
        try:
            source.backup(self.connection.connection)
        finally:
            source.close()
        return _finish(self, name, serialize)
    name = original(self, verbosity, autoclobber, serialize, False)
    SQLITE_DIR.mkdir(parents=True, exist_ok=True)
    partial = kept.with_suffix(f".{os.getpid()}.partial")
    target = sqlite3.connect(partial)
    try:
        self.connection.ensure_connection()
        self.connection.connection.backup(target)
    finally:
        target.close()
    os.replace(partial, kept)  # whole or not at all, whichever worker is last
    for old in SQLITE_DIR.glob("*.sqlite3"):
        if old != kept:
            old.unlink(missing_ok=True)
    return name


# --- PostgreSQL: a template database on the server -----------------------------------------

def _postgresql(self: Any, original: Callable[..., str], key: str, verbosity: int,
                autoclobber: bool, serialize: bool) -> str:
    template = TEMPLATE_PREFIX + key
    test = self.connection.settings_dict["TEST"]
    if _database_exists(self, template) and "TEMPLATE" not in test:
        test["TEMPLATE"] = template
        try:
            name = self._get_test_db_name()
            self._create_test_db(verbosity, autoclobber, False)
            _use_name(self, name)
            return _finish(self, name, serialize)
        finally:
            del test["TEMPLATE"]
    name = original(self, verbosity, autoclobber, serialize, False)
    _keep_template(self, name, template)
    return name


def _database_exists(self: Any, name: str) -> bool:
    with self._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return cursor.fetchone() is not None


def _keep_template(self: Any, name: str, template: str) -> None:
    """Copy the migrated test database `name` as `template` (under a name of this process's
    first, renamed when whole: another worker may be keeping the same copy), and drop the
    copies of other digests. A copy that cannot be made is left to the next run."""
    from django.db import DatabaseError

    partial = f"{template}_p{os.getpid()}"
    quote = self.connection.ops.quote_name
    self.connection.close()  # CREATE DATABASE … TEMPLATE wants no one connected to it
    if hasattr(self.connection, "close_pool"):
        self.connection.close_pool()
    with self._nodb_cursor() as cursor:
        try:
            cursor.execute(f"CREATE DATABASE {quote(partial)} TEMPLATE {quote(name)}")
            cursor.execute(f"ALTER DATABASE {quote(partial)} RENAME TO {quote(template)}")
        except DatabaseError:
            cursor.execute(f"DROP DATABASE IF EXISTS {quote(partial)}")
            return
        cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s AND datname <> %s",
                       [TEMPLATE_PREFIX + "%", template])
        for (stale,) in cursor.fetchall():
            try:
                cursor.execute(f"DROP DATABASE IF EXISTS {quote(stale)}")
            except DatabaseError:  # in use: another checkout's copy, being copied
                pass
    self.connection.ensure_connection()


def install() -> Callable[[], None]:
    """Route Django's create_test_db through `create_test_db`; return the undo."""
    from django.db.backends.base.creation import BaseDatabaseCreation

    original = BaseDatabaseCreation.create_test_db

    def patched(self: Any, verbosity: int = 1, autoclobber: bool = False,
                serialize: bool = True, keepdb: bool = False) -> str:
        return create_test_db(self, original, verbosity, autoclobber, serialize, keepdb)

    BaseDatabaseCreation.create_test_db = patched  # type: ignore[method-assign]

    def undo() -> None:
        BaseDatabaseCreation.create_test_db = original  # type: ignore[method-assign]

    return undo
