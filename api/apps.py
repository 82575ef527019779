from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The public API: tokens, their scopes and limits, the endpoints under /api/ and
    their OpenAPI 3.1 description (api/__init__.py)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "api"

    def ready(self) -> None:
        from .events import connect

        connect()  # `gameStart` on the members' event streams when a game starts
