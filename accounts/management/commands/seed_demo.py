"""Create the demo users alice and bob (password DEMO_PASSWORD). Safe to run repeatedly.

Only in DEBUG: on a production settings module it does nothing and says so.
"""

from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_PASSWORD = "cargo-demo"
DEMO_USERNAMES = ["alice", "bob"]


class Command(BaseCommand):
    help = "Create the demo users alice and bob (DEBUG only; idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            self.stdout.write("seed_demo: skipped, DEBUG is off (demo users are for development)")
            return
        User = get_user_model()
        for username in DEMO_USERNAMES:
            email = f"{username}@example.com"
            user, created = User.objects.get_or_create(
                username=username, defaults={"email": email}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            EmailAddress.objects.get_or_create(
                user=user, email=email, defaults={"verified": True, "primary": True}
            )
            state = "created" if created else "exists"
            self.stdout.write(f"seed_demo: {username} ({state}), password {DEMO_PASSWORD!r}")
