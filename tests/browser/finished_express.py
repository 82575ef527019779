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

No receiver of `post_save` creates rows (games/sockets/signout.py only sends a socket message, and
not for a created row), so loading without signals leaves out nothing the play wrote.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
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
    by the process's first caller, loaded from that play's rows for every later one."""
    from django.apps import apps
    from django.core import serializers

    if _BUILT:
        _load(_BUILT["rows"])
        return str(_BUILT["game"])
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
