"""WebSocket routes, included by cargosite/asgi.py. The game socket is composed here, in
the top layer, from the platform's game (`games.sockets.game.GameConsumer`) and the parts
the apps built on it add (`games.sockets.runtime.SocketParts`): the table chat
(chat/socket.py). The platform imports none of them. The tournament socket
(tournaments/socket.py) stands on the same runtime."""

from django.urls import path

from chat.socket import ChatSocket
from games import urls  # noqa: F401  (urls registers the gid converter)
from games.sockets.game import GameConsumer
from games.sockets.lobby import LobbyConsumer
from tournaments.socket import TournamentConsumer, TournamentListConsumer


class TableSocket(ChatSocket, GameConsumer):
    """`/ws/game/<id>/`: the game, and its table's chat."""


websocket_urlpatterns = [
    path("ws/game/<gid:game_id>/", TableSocket.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tournament/<gid:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/tournaments/", TournamentListConsumer.as_asgi()),
]
