"""Players, sessions and games for scripts/load_live.py (and scripts/faults.py): `--games N`
pairs of users (load-<i>-blue / load-<i>-orange, no usable password), a signed-in session
for each, and one active game per pair. Prints JSON: [{"id", "blue", "orange"}] (session keys)."""

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
        parser.add_argument("--size", type=int, default=8)
        parser.add_argument("--force", action="store_true",
                            help="run even when DEBUG is off (a load-test deployment)")

    def handle(self, *args: Any, games: int, size: int, force: bool, **options: Any) -> None:
        if not settings.DEBUG and not force:
            raise CommandError("load_setup makes throwaway users: DEBUG only, or --force")
        User = get_user_model()
        out = []
        for i in range(games):
            pair = {}
            for side in ("blue", "orange"):
                user, created = User.objects.get_or_create(username=f"load-{i}-{side}")
                if created:
                    user.set_unusable_password()
                    user.save(update_fields=["password"])
                pair[side] = (user, signed_in_session(user))
            game = services.create_game(
                game_type="cargo-connect", options={"size": size}, rated=False,
                seats=[services.Actor.member(pair[side][0]) for side in ("blue", "orange")])
            out.append({"id": game.id, "blue": pair["blue"][1], "orange": pair["orange"][1]})
        with connection.cursor() as cursor:  # statistics, as autovacuum would gather
            cursor.execute("ANALYZE")
        self.stdout.write(json.dumps(out))
