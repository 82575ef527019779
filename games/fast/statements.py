"""The turn's one hand-built write: `write_turn` (on a thread), `awrite_turn` (from the
event loop, games.fast.loopdb), and `NewTurn`, the turn they write.

Fast path (docs/fast-path.md, "games/fast/statements.py"): replaces Django's
ORM for the common turn (`Model.save` of the game and `Turn.objects.create` in a
transaction with a row lock) by one statement in autocommit, `WITH moved AS (UPDATE
games_game … WHERE id, revision, ply, status, queued_turns and the session hold RETURNING
id) INSERT INTO
games_turn … SELECT … FROM moved`, prepared once per connection and bound by the server (a
plain `psycopg.Cursor` on Django's connection: Django's cursors are `ClientCursor`s, which
never prepare). Relies on Django 5.2.19's `_meta.concrete_fields`, `get_field`,
`Field.column`, `pre_save`, `get_db_prep_save`, `cast_db_type`, `ForeignKey.target_field`,
`connection.ops.quote_name`, `connection.connection`, `ensure_connection`,
`wrap_database_errors`, `queries_logged`/`queries_log`, and on psycopg 3.3.9's `Cursor`
with the connection's `prepare_threshold` set (cargosite/settings.py). Measured alone:
prepared against quoted, 0.45 → 0.29 ms of backend CPU a write (2026-12-02, a psycopg
script, 4,000 writes); `NewTurn` and the values as they are: f0394c5 1.79 / 1.57 ms a turn
against f95ebe0's 2.01 / 1.84 (interleaved, with `now_for`, not alone). Off
(`LIVE_FAST_PATH=0`) nothing calls it: the locked path writes with the ORM.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import (
    BooleanField,
    CharField,
    Field,
    ForeignKey,
    IntegerField,
    JSONField,
    Model,
    TextField,
)

from games.fast import loopdb
from games.fast.guard import now_for
from games.fast.guard import sql as guard_sql
from games.models import Game, Turn

if TYPE_CHECKING:
    from games.actors import SessionGuard

# The turn's columns as `Model.save` inserts them (every concrete field but the id).
TURN_FIELDS = tuple(f.name for f in Turn._meta.concrete_fields if not f.primary_key)
assert TURN_FIELDS == ("game", "ply", "token", "seat", "events", "created_at"), TURN_FIELDS


@dataclass(frozen=True)
class NewTurn:
    """A turn the warm paths are about to write: what the row and the turn's frame need,
    without building Django's `Turn` (its `__init__` cost the loop a few percent)."""

    ply: int
    token: str
    seat: int
    events: list[Any]
def write_turn(game: Game, fields: list[str], turn: NewTurn, guard: SessionGuard | None
               ) -> bool:
    """A turn's one write, without a row lock: save the game's `fields` (already set on
    `game`) as the next revision and insert `turn`, on condition that the stored row is
    still at `game.revision` and active at the turn's ply, and that `guard`'s session still
    holds. On PostgreSQL one statement (`_turn_statement`, in autocommit: one round trip);
    elsewhere both in one transaction. True if written; False changed nothing (the caller
    takes the locked path, which says why)."""
    if connection.vendor == "postgresql":
        written = _execute_prepared(*_turn_statement(game, fields, turn, guard)) == 1
    else:
        update, params = _update_statement(game, fields, turn, guard)
        names, marks, turn_values = _turn_insert(game, turn)
        with connection.cursor() as cursor, transaction.atomic():
            cursor.execute(update, params)
            written = cursor.rowcount == 1
            if written:
                cursor.execute(f"INSERT INTO {_table(Turn)} ({names}) VALUES ({marks})",
                               turn_values)
    if written:
        game.revision += 1
    return written


async def awrite_turn(game: Game, fields: list[str], turn: NewTurn,
                      guard: SessionGuard | None) -> bool:
    """`write_turn` on PostgreSQL from the event loop (games.loopdb): the same statement
    on one of the loop's connections. Raises what psycopg raised, and then nothing is
    known of the write: the caller takes the threaded path, which finds out."""
    written = await loopdb.execute(*_turn_statement(game, fields, turn, guard)) == 1
    if written:
        game.revision += 1
    return written


def _turn_statement(game: Game, fields: list[str], turn: NewTurn, guard: SessionGuard | None
                    ) -> tuple[str, list[Any]]:
    """PostgreSQL's one statement for a turn, and its parameters: the UPDATE … RETURNING
    feeding the INSERT (`WITH moved AS (UPDATE …) INSERT … SELECT … FROM moved`)."""
    update, params = _update_statement(game, fields, turn, guard)
    names, _, turn_values = _turn_insert(game, turn)
    return (f'WITH moved AS ({update} RETURNING "id") INSERT INTO {_table(Turn)} ({names}) '
            f'SELECT {_typed_marks(Turn, TURN_FIELDS)} FROM moved', [*params, *turn_values])


@functools.cache
def _typed_marks(model: type[Model], names: tuple[str, ...]) -> str:
    """Placeholders cast to their columns' types: a SELECT list gives its parameters no
    type of its own, and the loop's write (games.loopdb) sends every value as text."""
    fields = _columns(model, names).fields
    return ", ".join(f"%s::{f.cast_db_type(connection)}" for f in fields)


def _update_statement(game: Game, fields: list[str], turn: NewTurn, guard: SessionGuard | None
                      ) -> tuple[str, list[Any]]:
    """The game row's UPDATE to its next revision, on the conditions of `write_turn`."""
    revision = game.revision
    assigned = _columns(Game, (*fields, "revision"))
    params = [*_values(game, assigned, {"revision": revision + 1}),
              game.id, revision, turn.ply, Game.Status.ACTIVE, game.queued_turns]
    clauses: tuple[str, ...] = ()
    if guard is not None:
        clauses, guard_params = guard_sql(guard)
        params += guard_params
    return _update_sql(assigned, clauses), params


@functools.cache
def _update_sql(assigned: Columns, guard_clauses: tuple[str, ...]) -> str:
    sets = ", ".join(f"{column} = {mark}"
                     for column, mark in zip(assigned.columns, assigned.marks, strict=True))
    where = ['"id" = %s', '"revision" = %s', '"ply" = %s', '"status" = %s',
             '"queued_turns" = %s', *guard_clauses]
    return f'UPDATE {_table(Game)} SET {sets} WHERE {" AND ".join(where)}'


def _turn_insert(game: Game, turn: NewTurn) -> tuple[str, str, list[Any]]:
    """The turn's quoted columns (TURN_FIELDS), as many placeholders, and its values as
    `Model.save` would send them."""
    inserted = _columns(Turn, TURN_FIELDS)
    created = now_for("games.Turn", "created_at")
    return ", ".join(inserted.columns), ", ".join(inserted.marks), [
        game.id, turn.ply, turn.token, turn.seat, orjson.dumps(turn.events).decode(), created]


def _execute_prepared(sql: str, params: list[Any]) -> int:
    """Run `sql` on PostgreSQL as a prepared statement, its parameters bound by the server
    rather than quoted into the text (Django's psycopg cursors bind on the client). The
    turn's write is the same statement every time, so PostgreSQL parses and plans it once
    per connection, and psycopg sends the values as they are instead of quoting each (the
    position and the token list are the longest). Errors are Django's, as through its
    cursor (`DATABASE_DOWN`; the connection is marked for its health check), and it is
    logged where Django logs its queries (DEBUG, `CaptureQueriesContext`). Returns the
    number of rows it inserted."""
    connection.ensure_connection()
    started = time.monotonic()
    # Django makes its connections' cursors client-binding (`ClientCursor`, which quotes
    # every value into the text and cannot prepare): a plain psycopg cursor binds on the
    # server, and prepares since the connection's `prepare_threshold` is set
    # (cargosite/settings.py).
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params, prepare=True)
        rows = cursor.rowcount
    if connection.queries_logged:
        connection.queries_log.append(
            {"sql": sql, "time": f"{time.monotonic() - started:.3f}"})
    return rows


@functools.cache
def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


@dataclass(frozen=True)
class Columns:
    """Some fields of a model, their quoted columns and their placeholders (a JSON value is
    sent as its text, cast on PostgreSQL), and per field the Python type a value is sent
    as it is in (Django's preparation of it would return it unchanged), if any."""

    fields: tuple[Field, ...]
    columns: tuple[str, ...]
    marks: tuple[str, ...]
    as_is: tuple[type | None, ...]


@functools.cache
def _columns(model: type[Model], names: tuple[str, ...]) -> Columns:
    fields, columns = [], []
    for name in names:
        f = model._meta.get_field(name)
        assert isinstance(f, Field) and f.column is not None
        fields.append(f)
        columns.append(connection.ops.quote_name(f.column))
    json = "%s::jsonb" if connection.vendor == "postgresql" else "%s"
    return Columns(tuple(fields), tuple(columns),
                   tuple(json if isinstance(f, JSONField) else "%s" for f in fields),
                   tuple(_as_is(f) for f in fields))


def _as_is(f: Field) -> type | None:
    """The type whose values `f` prepares for the database as they are: text for text
    fields, whole numbers for integer fields, truth values for booleans."""
    if isinstance(f, ForeignKey):
        target = f.target_field
        return _as_is(target) if isinstance(target, Field) else None
    if isinstance(f, (CharField, TextField)):
        return str
    if isinstance(f, IntegerField):
        return int
    if isinstance(f, BooleanField):
        return bool
    return None


def _values(obj: Model, columns: Columns, values: dict[str, Any]) -> list[Any]:
    """The values of `obj`'s `columns` as the database takes them (what `Model.save` would
    send for an existing row, a JSON value as its text; `values` overrides an attribute).
    A value of its field's `as_is` type goes as it is: Django's preparation of each field
    cost the loop more than the rest of the statement."""
    out: list[Any] = []
    for f, as_is in zip(columns.fields, columns.as_is, strict=True):
        value = values[f.name] if f.name in values else f.pre_save(obj, False)
        if isinstance(f, JSONField):
            out.append(None if value is None else orjson.dumps(value).decode())
        elif value is None or type(value) is as_is:
            out.append(value)
        else:
            out.append(f.get_db_prep_save(value, connections[DEFAULT_DB_ALIAS]))
    return out
