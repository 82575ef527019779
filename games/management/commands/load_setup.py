"""Players, sessions and games for scripts/load_live.py (and scripts/faults.py): `--games N`
tables of users (no usable password), a signed-in session for each, and one casual
untimed game per table, of the kind `--game` names (by default the site's default kind),
with `--seats N` seats (one of the kind's seat counts; by default its largest) and the
board of `--size` where the kind has that option. Users load-<i>-<seat key> (load-3-blue,
load-3-seat2); prints JSON [{"id", "seats", <seat key>: ...}]: session keys, `seats` in
seat order and each also under its seat's key."""

import json
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from common.sessions import signed_in_session
from games import services
from games.kinds import KindError, all_kinds, get_kind


class Command(BaseCommand):
    help = "Create players, sessions and games for the live-play load script."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--size", type=int, default=8,
                            help="the board's size, for a kind with that option")
        parser.add_argument("--game", choices=sorted(k.key for k in all_kinds()),
                            default=settings.DEFAULT_GAME_KIND)
        parser.add_argument("--seats", type=int, default=None,
                            help="seats per game (default: the kind's largest count)")
        parser.add_argument("--force", action="store_true",
                            help="run even when DEBUG is off (a load-test deployment)")

    def handle(self, *args: Any, games: int, size: int, game: str, seats: int | None,
               force: bool, **options: Any) -> None:
        if not settings.DEBUG and not force:
            raise CommandError("load_setup makes throwaway users: DEBUG only, or --force")
        try:
            kind = get_kind(game)
        except KindError as unknown:
            raise CommandError(str(unknown)) from None
        seats = kind.default_seat_count if seats is None else seats
        if seats not in kind.seat_counts:
            raise CommandError(f"{kind.name} is played by "
                               f"{', '.join(map(str, kind.seat_counts))}, not {seats}")
        keys = [kind.seat_key(k) for k in range(seats)]
        board = {"size": size} if any(f.name == "size" for f in kind.option_fields) else {}
        User = get_user_model()
        out: list[dict[str, Any]] = []
        for i in range(games):
            table = []
            for key in keys:
                user, created = User.objects.get_or_create(username=f"load-{i}-{key}")
                if created:
                    user.set_unusable_password()
                    user.save(update_fields=["password"])
                table.append((user, signed_in_session(user)))
            made = services.create_game(
                game_type=game, options=board, rated=False,
                seats=[services.Actor.member(user) for user, _ in table])
            entry: dict[str, Any] = {"id": made.id, "seats": [key for _, key in table]}
            entry.update(zip(keys, entry["seats"], strict=True))
            out.append(entry)
        with connection.cursor() as cursor:  # statistics, as autovacuum would gather
            cursor.execute("ANALYZE")
        self.stdout.write(json.dumps(out))
