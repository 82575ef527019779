"""ASGI entry point: Django for HTTP, Channels for WebSockets. Served by uvicorn with the
production options (cargosite/serve.py):

    python -m cargosite.serve --port 8000

HTTP: the public API's own URLs go through the API's lean stack (cargosite/apipath.py:
the headers the API's answers carry, on the event loop up to the view), every other
request through the site's MIDDLEWARE; API_LEAN_PATH=0 sends every request through the
site's.

WebSockets pass the Origin check (cargosite/origins.py: scheme, host and port), then the
session and the user (cargosite/socket_session.py: Channels' AuthMiddlewareStack without its
wrapper round every send; Channels' own with LIVE_FAST_PATH=0) and the guest middleware; a
database that does not answer meanwhile closes the socket with 1013
(cargosite/unavailable.py).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cargosite.settings")
# Set Django up before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from cargosite import logs  # noqa: E402
from cargosite.apipath import ApiASGIHandler, route  # noqa: E402
from cargosite.beat import EmbeddedBeat  # noqa: E402
from cargosite.origins import SameOriginValidator  # noqa: E402
from cargosite.routing import websocket_urlpatterns  # noqa: E402
from cargosite.socket_session import socket_auth_stack  # noqa: E402
from cargosite.unavailable import SocketDatabaseGuard  # noqa: E402
from games.actors import GuestMiddleware  # noqa: E402

logs.install()  # one line, not a traceback, for invalid UTF-8 frames and a Redis outage

# EmbeddedBeat: the periodic tasks in this process when there is no worker (EMBEDDED_BEAT,
# by default without REDIS_URL), from the lifespan startup (cargosite/beat.py).
application = EmbeddedBeat(ProtocolTypeRouter(
    {
        "http": route(site=django_asgi_app, api=ApiASGIHandler()),
        # GuestMiddleware: a signed-out visitor's session plays its games against CargoBot.
        "websocket": SameOriginValidator(SocketDatabaseGuard(
            socket_auth_stack(GuestMiddleware(URLRouter(websocket_urlpatterns)))
        )),
    }
))
