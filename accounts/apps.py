from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Members' ratings (`models.Player`), per-game stats and achievements written after a
    game's result commits (`stats`, `achievements`), streaks, the profile pages, and the
    BOT accounts' flag (`bots`: the platform's title keeper)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from games import titles

        from . import achievements, stats  # noqa: F401  (register the game-end handlers)
        from .bots import Titles
        from .signals import connect

        connect()
        titles.kept_by(Titles())  # "BOT" before a BOT account's name (games.titles)
