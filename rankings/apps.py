from django.apps import AppConfig


class RankingsConfig(AppConfig):
    """Ratings per game type and kind (`models.Rating`): pure Elo and OpenSkill maths
    (`elo`, `multiplayer`), rating writes registered on the finish seam (`ratings`), the
    history (`models`), the boards (`boards`, `tabs`)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "rankings"

    def ready(self) -> None:
        from . import ratings  # noqa: F401  (registers the game-end handlers)
