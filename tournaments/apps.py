from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Swiss tournaments and arenas (issue #46; docs/tournaments.md,
    docs/tournaments-arena.md): the rows (`models`), entries
    (`services`), rounds, forfeits and the beat's tick (`rounds`), the standings computed
    from the stored games (`standings`), and the pure pairing and tie breaks (`swiss/`, no
    Django)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        # The game-end handlers (arenas, rounds); an arena game's berserk on its page.
        from . import arenas, game_extras, rounds  # noqa: F401
