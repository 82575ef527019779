"""A finished two-seat Cargo Express game of alice and bob for the browser tests, played
once per test process (per xdist worker) and re-loaded for every test that needs it.

The first test to ask plays the game as the tests always did: every decision the kind's
Easy bot's, sent a step at a time through `services.apply_turn` (about 500 steps, most of
a minute here). The rows that play wrote (the members, the game, its seats and turns,
their stats, whatever else the services saved) are then serialized with Django's
serializers; every later test of the process gets those rows loaded back into its flushed
test database (a `bulk_create` per model, then PostgreSQL's sequences reset as `loaddata`
resets them), so it sees exactly what the services wrote, in well under a second. Only
rows the play created are kept: those the flushed database already holds (content types,
permissions) are left to it.

Under pytest-xdist the play's rows are shared by the run's workers too: the first worker to
ask plays and writes them to a file named after the run (`PYTEST_XDIST_TESTRUNUID`, under
a lock); a worker that asks later loads that file instead of playing again (issue #43,
session 28: the play was 35 s of a loaded worker, once per worker). The rows carry their own
ids and each worker's database is flushed the same way, so they load alike anywhere; with
no file (its writer gone and its file removed) a worker plays as before.

No receiver of `post_save` creates rows (games/sockets/signout.py only sends a socket message, and
not for a created row), so loading without signals leaves out nothing the play wrote.
"""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.browser.devices import PASSWORD

# One per test process: the game's id and the file of its rows.
_BUILT: dict[str, Any] = {}


def _pks(models: list[Any]) -> dict[Any, set[Any]]:
    return {model: set(model._default_manager.values_list("pk", flat=True))
            for model in models}


def _play(django_user_model: Any) -> str:
    """alice and bob's game, every decision the kind's Easy bot's, sent a step at a time."""
    from games import services
    from games.actors import Actor
    from games.kinds import get_kind

    users = [django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
             for name in ("alice", "bob")]
    actors = [Actor.member(user) for user in users]
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=actors)
    kind = get_kind("cargo-express")
    for _ in range(5000):
        lg = services.live(services.get_game(game.id))
        if lg.over:
            break
        areas = lg.view(None)["areas"]
        seat = next((s for s in lg.acting() if not areas[s]["committed"]), lg.acting()[0])
        token = kind.bot_decision(lg.redacted(seat), seat, "easy", 5)
        steps = token.rpartition(":")[2].split(".") if ":" in token else [token]
        for step in steps:
            lg = services.live(services.get_game(game.id))
            services.apply_turn(game.id, actor=actors[seat], ply=lg.sequence(seat), token=step)
    assert services.live(services.get_game(game.id)).over
    return str(game.id)


def _shared() -> Path | None:
    """The run's file of the play's rows, shared by its xdist workers (None without xdist)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    return Path(tempfile.gettempdir()) / f"cargo-finished-express-{run}.json" if run else None


@contextmanager
def _locked(shared: Path) -> Iterator[None]:
    with open(shared.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _forget(shared: Path) -> None:
    with _locked(shared):
        shared.unlink(missing_ok=True)
    shared.with_suffix(".lock").unlink(missing_ok=True)


def _load(rows: Path) -> None:
    """The rows back, a `bulk_create` per model in one transaction (`loaddata` saves them
    one at a time: several seconds here for the game's ~1,000 rows), then each model's
    sequence reset past its rows, as `loaddata` does."""
    from django.core import serializers
    from django.core.management.color import no_style
    from django.db import connection, transaction

    loaded = list(serializers.deserialize("json", rows.read_text(encoding="utf-8")))
    by_model: dict[Any, list[Any]] = {}
    for item in loaded:
        by_model.setdefault(type(item.object), []).append(item.object)
    with connection.constraint_checks_disabled(), transaction.atomic():
        for model, objects in by_model.items():
            model._default_manager.bulk_create(objects)
        for item in loaded:
            for field, values in (item.m2m_data or {}).items():
                if values:
                    getattr(item.object, field).set(values)
        statements = connection.ops.sequence_reset_sql(no_style(), list(by_model))
        if statements:
            with connection.cursor() as cursor:
                for sql in statements:
                    cursor.execute(sql)


def finished_express_game(django_user_model: Any) -> str:
    """The finished game's id, its rows in the (transactional, flushed) test database: played
    by the run's first caller (under xdist, the first worker's), loaded from that play's rows
    for every later one."""

    if _BUILT:
        _load(_BUILT["rows"])
        return str(_BUILT["game"])
    shared = _shared()
    if shared is None:
        return _play_and_keep(django_user_model)
    with _locked(shared):  # another worker may be playing it: wait for its rows
        if shared.exists():
            made = json.loads(shared.read_text(encoding="utf-8"))
            folder = Path(tempfile.mkdtemp(prefix="cargo-finished-express-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            rows = folder / "finished-express.json"
            rows.write_text(made["rows"], encoding="utf-8")
            _BUILT.update(game=made["game"], rows=rows)
            _load(rows)
            return str(made["game"])
        game_id = _play_and_keep(django_user_model)
        shared.write_text(json.dumps({"game": game_id, "rows": _BUILT["rows"].read_text(
            encoding="utf-8")}), encoding="utf-8")
        atexit.register(_forget, shared)
        return game_id


def _play_and_keep(django_user_model: Any) -> str:
    """Play the game in this process's database and keep the rows the play wrote."""
    from django.apps import apps
    from django.core import serializers

    models = [model for model in apps.get_models() if model._meta.managed
              and not model._meta.proxy]
    before = _pks(models)
    game_id = _play(django_user_model)
    created: list[Any] = []
    for model in serializers.sort_dependencies(
            [(config, list(config.get_models())) for config in apps.get_app_configs()]):
        if model not in before:
            continue
        created.extend(model._default_manager.exclude(pk__in=before[model]).order_by("pk"))
    folder = Path(tempfile.mkdtemp(prefix="cargo-finished-express-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    rows = folder / "finished-express.json"
    rows.write_text(serializers.serialize("json", created), encoding="utf-8")
    _BUILT.update(game=game_id, rows=rows)
    return game_id
