from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from .kinds import (
            cargo_connect,  # noqa: F401  (registers Cargo Connect)
            cargo_express,  # noqa: F401  (registers Cargo Express)
        )
        from .signout import connect_signals

        connect_signals()  # sign-out, password change, deactivation close a member's sockets
