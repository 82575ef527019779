"""The notifications app: registers its game-end handler on the finish seam."""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import notify  # noqa: F401  (registers `game_ended` on the finish seam)
