from django.apps import AppConfig


class RankingsConfig(AppConfig):
    """Ratings per game type and rating system (`models.Rating`): pure Elo and OpenSkill
    maths (`elo`, `multiplayer`), rating writes registered on the finish seam (`ratings`),
    the history (`models`), the boards (`boards`, `tabs`)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "rankings"

    def ready(self) -> None:
        from games.frames import shown_ratings

        from . import ratings  # registers the game-end handlers

        shown_ratings.shown_by(ratings)  # the ratings live play shows
