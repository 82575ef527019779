from django.apps import AppConfig


class RankingsConfig(AppConfig):
    """Ratings: pure Elo maths (`elo`), rating writes registered on the finish seam
    (`ratings`), the history (`models`)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "rankings"

    def ready(self) -> None:
        from . import ratings  # noqa: F401  (registers the game-end handlers)
