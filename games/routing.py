"""WebSocket routes, included by cargosite/asgi.py."""

from django.urls import path

from . import consumers, urls  # noqa: F401  (urls registers the gid converter)

websocket_urlpatterns = [
    path("ws/game/<gid:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
]

