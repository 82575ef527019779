"""The WebSocket Origin check: a socket is opened only from a page of this site.

A browser names the page's origin (scheme, host, port) in the handshake's Origin header.
It is accepted when it is exactly the origin the socket was opened on (the Host header,
which must be one of ALLOWED_HOSTS, with http for ws and https for wss; behind nginx,
uvicorn's proxy headers give the scheme) or one of CSRF_TRUSTED_ORIGINS. Default ports are
the same as none (`http://x:80` is `http://x`). Channels' AllowedHostsOriginValidator,
which this replaces, compared the host alone.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def normalise(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, or None if it is not an http(s) origin."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    return parts.scheme, parts.hostname.lower(), port or DEFAULT_PORTS[parts.scheme]


def own_origin(scope: dict[str, Any]) -> tuple[str, str, int] | None:
    """The origin the socket was opened on, if its Host is one of ALLOWED_HOSTS."""
    host = _header(scope, b"host")
    if host is None:
        return None
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return normalise(f"{scheme}://{host}")


def allowed(scope: dict[str, Any]) -> bool:
    origin = _header(scope, b"origin")
    theirs = normalise(origin) if origin is not None else None
    if theirs is None:
        return False
    if theirs == own_origin(scope):
        return True
    return any(theirs == normalise(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS)


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            try:
                return bytes(value).decode("latin1")
            except UnicodeDecodeError:  # pragma: no cover - latin1 decodes any byte
                return None
    return None


class SameOriginValidator:
    """ASGI middleware for WebSockets: refuse (403) a handshake from another origin."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator is for WebSocket connections")
        if allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
