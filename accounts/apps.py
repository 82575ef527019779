from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Members' ratings (`models.Player`), per-game stats and achievements written after a
    game's result commits (`stats`, `achievements`), streaks, and the profile pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from . import achievements, stats  # noqa: F401  (register the game-end handlers)
        from .signals import connect

        connect()
