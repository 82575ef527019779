"""WebSocket routes, included by cargosite/asgi.py."""

from django.urls import path

from . import urls  # noqa: F401  (urls registers the gid converter)
from .sockets.game import GameConsumer
from .sockets.lobby import LobbyConsumer

websocket_urlpatterns = [
    path("ws/game/<gid:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
