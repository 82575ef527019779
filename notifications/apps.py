"""The notifications app: registers its game-end handler on the finish seam and the web
push settings' check."""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import checks, notify  # noqa: F401  (the push settings' check; `game_ended`
        # on the finish seam)
