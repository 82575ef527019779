"""Helpers for notification tests: correspondence games and who was told what."""

from games import services
from notifications.models import Notification
from tests.clocks.support import play  # noqa: F401  (a legal turn by a member)
from tests.games.support import member


def correspondence_game(blue, orange, time_control="3d", **kwargs):
    return services.create_game(game_type="cargo-connect", options={"size": 5},
                                seats=[member(blue), member(orange)],
                                time_control=time_control, **kwargs)


def told(user, kind=None, unread=None):
    rows = Notification.objects.filter(user=user)
    if kind:
        rows = rows.filter(kind=kind)
    if unread is not None:
        rows = rows.filter(read_at__isnull=unread)
    return list(rows.order_by("id").values_list("text", flat=True))
