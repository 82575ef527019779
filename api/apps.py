from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The public API: tokens, their scopes and limits, the endpoints under /api/ and
    their OpenAPI 3.1 description (api/__init__.py)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "api"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from . import oauth
        from .events import connect

        # the toolkit deletes a revoked app token: its checksum is kept (api/oauth.py)
        post_delete.connect(oauth.forget, sender=oauth.AppToken,
                            dispatch_uid="api.oauth.forget")
        connect()  # `gameStart` and `gameFinish` on the members' event streams
