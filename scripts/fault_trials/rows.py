"""The site's side of the fault trials: Django set up in the runner's own process against
the run's database (`django_setup`), and the games and rows the trials make and read there
(`people_games`, `bot_game`, `member`, `game_row`, `turn_rows`), each on a connection that
PostgreSQL's restart did not leave broken (`fresh`)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from .servers import ROOT


def django_setup(env: dict[str, str]) -> None:
    for key in ("DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"):
        os.environ[key] = env[key]
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ["DJANGO_SETTINGS_MODULE"] = "cargosite.settings"
    # This script's own helpers open plain connections and reopen them after PostgreSQL's
    # restart (`fresh`): a pool here would wait out its back-off instead (the site's
    # processes have theirs, topology.sh's environment).
    os.environ["DJANGO_DB_POOL"] = "0"
    # This script reads and writes rows between awaits, one thing at a time: the ORM's
    # guard against use from an event loop's thread does not apply.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def fresh(func: Callable[..., Any]) -> Callable[..., Any]:
    """Run `func` on a connection that is not one PostgreSQL's restart left broken (these
    helpers run on worker threads of this process, each with its own connection)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from django.db import connection

        connection.close_if_unusable_or_obsolete()
        if connection.connection is not None and not connection.is_usable():
            connection.close()
        return func(*args, **kwargs)

    return wrapper


@fresh
def people_games(count: int) -> list[dict[str, str]]:
    """`count` games between two signed-in members: [{"id", "blue", "orange"}] (sessions)."""
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("load_setup", games=count, size=8, force=True, stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


def member(name: str) -> tuple[Any, str]:
    from django.contrib.auth import get_user_model

    from common.sessions import signed_in_session

    user, _ = get_user_model().objects.get_or_create(username=name)
    return user, signed_in_session(user)


@fresh
def bot_game(name: str, level: str) -> tuple[str, str]:
    """A casual 8×8 game of a new member (Blue, to move first) against CargoBot: (id,
    session)."""
    from games import services
    from games.botplay import bot_games

    user, session = member(name)
    game = bot_games.create_bot_game(actor=services.Actor.member(user), level=level,
                                options={"size": 8}, seat="blue")
    return game.id, session


@fresh
def game_row(game_id: str) -> Any:
    from games.models import Game

    return Game.objects.get(id=game_id)


@fresh
def turn_rows(game_id: str, ply: int) -> int:
    from games.models import Turn

    return Turn.objects.filter(game_id=game_id, ply=ply).count()
