"""The test run's SQLite backend (tests/sqlite_backend/base.py): a read that meets another
connection's write waits until it commits, instead of failing at once with "database
table is locked" as SQLite's shared cache answers."""

import threading

import pytest
from django.db import connection, transaction

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite",
                                reason="the shared-cache lock is SQLite's")


@pytest.mark.django_db(transaction=True)
def test_a_read_waits_for_the_writer_s_commit(django_user_model):
    written, release = threading.Event(), threading.Event()

    def writer():
        try:
            with transaction.atomic():
                django_user_model.objects.create_user("writer", "w@example.com", "a-long-pass")
                written.set()
                release.wait(5)
        finally:
            connection.close()

    thread = threading.Thread(target=writer)
    thread.start()
    assert written.wait(5)
    threading.Timer(0.3, release.set).start()
    assert django_user_model.objects.filter(username="writer").count() == 1  # waited
    thread.join(5)


def test_a_lock_held_past_the_wait_still_fails(monkeypatch):
    import sqlite3

    from tests.sqlite_backend import base

    monkeypatch.setattr(base, "WAIT_S", 0.05)
    calls = []

    def locked():
        calls.append(1)
        raise sqlite3.OperationalError("database table is locked: auth_user")

    with pytest.raises(sqlite3.OperationalError, match="table is locked"):
        base.waiting_out_locks(locked)
    assert len(calls) > 1  # tried again before giving up
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        base.waiting_out_locks(lambda: (_ for _ in ()).throw(
            sqlite3.OperationalError("no such table: x")))
