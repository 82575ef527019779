from django.apps import AppConfig


class DailyConfig(AppConfig):
    """The Daily Challenge (rulebook section 9; docs/daily-challenge.md): one shift a Pacific
    day against CargoBot, ranked or practice, with its boards in `rankings`."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles.daily"
    label = "daily"
    verbose_name = "Daily Challenge"

    def ready(self) -> None:
        from . import hooks  # noqa: F401  (registers the finish handler and access checks)
