"""The site's WebSocket consumers, split by concern (cargosite/routing.py routes them):

- `games.sockets.runtime`: what every socket shares: service calls off the event loop, the
  budgets and close codes, frame parsing, a channel layer that may be down, the session;
- `games.sockets.game`: `GameConsumer`, the game socket (`/ws/game/<id>/`);
- `games.sockets.lobby`: `LobbyConsumer`, the lobby socket (`/ws/lobby/`).
"""
