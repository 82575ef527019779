"""The arena of scripts/load_arena.py (issue #46's load acceptance;
docs/tournaments-arena.md, "Load"), in two steps run with the servers' environment (the
same database and Redis):

- `--players N --seconds S`: N members `arena-load-<i>` (no usable password), a signed-in
  session for each (the `sessionid` cookie), and a rated arena of the default kind (or
  `--game`) at `--time-control` on a bay of `--size`, lasting long enough for S seconds
  of play (at least the arena's 10 minutes), scheduled an hour ahead so that no beat
  starts it early, every member joined through `tournaments.services.join`. Prints JSON
  `{"tournament", "players": [{"name", "session"}]}`.
- `--start ID --seconds S`: the arena's start moved so that it ends S seconds from now
  (an arena of 10 minutes played for 90 s began, on paper, 8.5 minutes ago: the pass
  reads only the end and the players' own waits), then the passes sent as a game's end
  sends them (`tournaments.arenas.send_passes`: to the Celery worker when REDIS_URL is
  set). Prints JSON `{"tournament", "starts_at", "ends_at"}` (epoch seconds).

Throwaway users: DEBUG only, or `--force` (a load-test deployment), as `load_setup`.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.utils import timezone

from common.sessions import signed_in_session
from tournaments import arenas, services
from tournaments.models import Tournament

PREFIX = "arena-load-"


def minutes_for(seconds: float) -> int:
    """The arena's duration for `seconds` of play: whole minutes, at least the minimum."""
    return max(arenas.MIN_DURATION, math.ceil(seconds / 60))


def member(i: int) -> Any:
    user, created = get_user_model().objects.get_or_create(username=f"{PREFIX}{i}")
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


class Command(BaseCommand):
    help = "Make (or start) the arena of the arena load script."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--seconds", type=float, default=600.0,
                            help="seconds of play from the start to the arena's end")
        parser.add_argument("--game", default=settings.DEFAULT_GAME_KIND)
        parser.add_argument("--time-control", default="3+2")
        parser.add_argument("--size", type=int, default=6, help="the bay's size")
        parser.add_argument("--start", metavar="ID", default="",
                            help="start this arena now, ending --seconds from now")
        parser.add_argument("--force", action="store_true",
                            help="run even when DEBUG is off (a load-test deployment)")

    def handle(self, *args: Any, players: int, seconds: float, game: str,
               time_control: str, size: int, start: str, force: bool,
               **options: Any) -> None:
        if not settings.DEBUG and not force:
            raise CommandError("arena_load_setup makes throwaway users: DEBUG only, or --force")
        if start:
            self.stdout.write(json.dumps(self.start(start, seconds)))
            return
        try:
            arena = services.create_tournament(
                name=f"Load arena of {players}", game_type=game, rounds=0,
                starts_at=timezone.now() + dt.timedelta(hours=1), time_control=time_control,
                rated=True, max_players=max(2, players), options={"size": size},
                system=Tournament.System.ARENA, duration=minutes_for(seconds), berserk=False)
        except services.TournamentError as refused:
            raise CommandError(str(refused)) from None
        out = []
        for i in range(players):
            user = member(i)
            services.join(arena, user)
            out.append({"name": user.username, "session": signed_in_session(user)})
        with connection.cursor() as cursor:  # statistics, as autovacuum would gather
            cursor.execute("ANALYZE")
        self.stdout.write(json.dumps({"tournament": arena.pk, "players": out}))

    def start(self, tournament_id: str, seconds: float) -> dict[str, Any]:
        arena = Tournament.objects.filter(pk=tournament_id, system=Tournament.System.ARENA,
                                          status=Tournament.Status.SCHEDULED).first()
        if arena is None or arena.duration is None:
            raise CommandError(f"no scheduled arena {tournament_id!r}")
        if seconds > arena.duration * 60:
            raise CommandError(f"the arena lasts {arena.duration} minutes, not {seconds} s")
        ends_at = timezone.now() + dt.timedelta(seconds=seconds)
        arena.starts_at = ends_at - dt.timedelta(minutes=arena.duration)
        arena.save(update_fields=["starts_at"])
        arenas.send_passes(arena.pk)
        return {"tournament": arena.pk, "starts_at": arena.starts_at.timestamp(),
                "ends_at": ends_at.timestamp()}
