"""The test database made from the kept copy of the migrated schema (tests/migrated_db.py)
is the migrated one: every migration recorded as applied, every model's table and column
there; the copy's name follows every migration file."""

from pathlib import Path

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from tests import migrated_db


@pytest.mark.django_db
def test_every_migration_is_applied_and_every_models_column_is_there():
    loader = MigrationLoader(connection)
    applied = set(MigrationRecorder(connection).applied_migrations())
    assert set(loader.graph.nodes) <= applied
    tables = set(connection.introspection.table_names())
    with connection.cursor() as cursor:
        for model in apps.get_models():
            if not model._meta.managed or model._meta.proxy:
                continue
            assert model._meta.db_table in tables, model
            columns = {c.name for c in connection.introspection.get_table_description(
                cursor, model._meta.db_table)}
            assert {f.column for f in model._meta.local_concrete_fields} <= columns, model


@pytest.mark.django_db
def test_the_rows_the_migrations_write_are_there():
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType

    assert ContentType.objects.filter(app_label="games", model="game").exists()
    assert Permission.objects.filter(codename="change_game").exists()


def test_the_copys_name_follows_each_migration_file(monkeypatch):
    before = migrated_db.digest(connection)
    assert migrated_db.digest(connection) == before
    read = Path.read_bytes

    def changed(path: Path) -> bytes:
        text = read(path)
        return text + b"\n# changed" if path.name == "0002_daily_boards.py" else text

    monkeypatch.setattr(Path, "read_bytes", changed)
    assert migrated_db.digest(connection) != before


def test_the_copy_can_be_turned_off(monkeypatch):
    monkeypatch.delenv("CARGO_TEST_MIGRATE", raising=False)
    assert migrated_db.wanted()
    monkeypatch.setenv("CARGO_TEST_MIGRATE", "1")
    assert not migrated_db.wanted()
