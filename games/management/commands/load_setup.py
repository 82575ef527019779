"""Players, sessions and games for scripts/load_live.py (and scripts/faults.py): `--games N`
tables of users (no usable password), a signed-in session for each, and one active game per
table. Cargo Connect (the default): pairs load-<i>-blue / load-<i>-orange; prints JSON
[{"id", "blue", "orange", "seats"}] (session keys; `seats` the same keys in seat order).
`--game cargo-express --seats N` (2-4, default 4): users load-<i>-seat<k>, one casual
untimed Cargo Express game per table; prints [{"id", "seats"}]."""

import json
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from games import services


def signed_in_session(user: Any) -> str:
    """A new session in which `user` is signed in; its key (the `sessionid` cookie)."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    assert session.session_key is not None
    return session.session_key


class Command(BaseCommand):
    help = "Create players, sessions and games for the live-play load script."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--size", type=int, default=8, help="Cargo Connect's board")
        parser.add_argument("--game", choices=("cargo-connect", "cargo-express"),
                            default="cargo-connect")
        parser.add_argument("--seats", type=int, default=4, help="Cargo Express's seats")
        parser.add_argument("--force", action="store_true",
                            help="run even when DEBUG is off (a load-test deployment)")

    def handle(self, *args: Any, games: int, size: int, game: str, seats: int, force: bool,
               **options: Any) -> None:
        if not settings.DEBUG and not force:
            raise CommandError("load_setup makes throwaway users: DEBUG only, or --force")
        express = game == "cargo-express"
        if express and seats not in (2, 3, 4):
            raise CommandError("Cargo Express is played by 2, 3 or 4")
        keys = [f"seat{k + 1}" for k in range(seats)] if express else ["blue", "orange"]
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
                game_type=game, options={} if express else {"size": size}, rated=False,
                seats=[services.Actor.member(user) for user, _ in table])
            entry: dict[str, Any] = {"id": made.id, "seats": [key for _, key in table]}
            if not express:
                entry.update(zip(keys, entry["seats"], strict=True))
            out.append(entry)
        with connection.cursor() as cursor:  # statistics, as autovacuum would gather
            cursor.execute("ANALYZE")
        self.stdout.write(json.dumps(out))
