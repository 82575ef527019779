from django.apps import AppConfig


class CommonConfig(AppConfig):
    """The apps' shared layer; at start it registers the site's deploy checks."""

    name = "common"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers them)
