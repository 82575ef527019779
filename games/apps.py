from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games.kinds import (
            cargo_connect,  # noqa: F401  (registers Cargo Connect)
            cargo_express,  # noqa: F401  (registers Cargo Express)
        )
        from games.sockets.signout import connect_signals
        from games.timing import timeouts
        from games.turns import play

        connect_signals()  # sign-out, password change, deactivation close a member's sockets
        timeouts.answered_by(play)  # a fallen flag: the clock reports it, play acts
