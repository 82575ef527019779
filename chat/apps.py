from django.apps import AppConfig


class ChatConfig(AppConfig):
    """Table chat: each game's two rooms (`models`), who reads and writes which
    (`rooms`), posting, catch-up and moderation (`services`), the frames (`frames`), the
    game socket's chat part (`socket`) and the admin's reports, hiding and silences
    (`admin`). docs/chat.md."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = "Table chat"
