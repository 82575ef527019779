"""WebSocket routes, included by cargosite/asgi.py. Live play adds its consumers here."""

websocket_urlpatterns: list = []
