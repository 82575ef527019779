"""The API's own lean request path (issue #47; docs/api.md, "The API's lean request path").

The API never takes a session cookie as a key (api/auth.py: only the bearer token opens
it), so its answers need none of the page middlewares: sessions, CSRF, authentication,
presence, messages, allauth's, the BOT account's page check, the site's 404 page, Axes,
WhiteNoise (which serves /static/ only). A request for one of the NinjaAPI's own URLs
(`takes`: resolved among the API's patterns, the reference page at /api/ and any unknown
/api/… address left to the site) goes through `settings.API_MIDDLEWARE` instead: the
headers the site sends on API answers (SecurityMiddleware's, the Content-Security-Policy,
the Permissions-Policy, X-Frame-Options), CommonMiddleware's host check and
Content-Length. Each runs both ways, so under ASGI the request stays on the event loop up
to the view, which crosses to a thread once; through the page stack it crossed to a
thread for the whole stack, back to the loop for Axes and to the thread again for the
view.

- Under ASGI `route` (cargosite/asgi.py) sends those requests to `ApiASGIHandler`.
- Under WSGI and Django's test client `ApiRouteMiddleware`, first in MIDDLEWARE, hands
  them to the same stack in its sync mode (`ApiHandler`): the tests see what the ASGI
  processes serve.
- `API_LEAN_PATH=0`: every request through the site's stack as before (`route` sends
  nothing aside, the middleware takes itself out).

The lean middlewares are the page stack's own classes, whose `process_request` and
`process_response` (header and host arithmetic, no I/O) are called on the loop instead of
through `sync_to_async` each (`OnLoop`): written against the versions in `PINNED`
(tests/api/test_lean_path.py holds requirements.txt and the installed versions
to them)."""

from __future__ import annotations

import functools
from typing import Any

import csp.middleware
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, MiddlewareNotUsed
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponseBase
from django.middleware import clickjacking, common, security
from django.urls import URLResolver, get_resolver
from django.urls.exceptions import Resolver404
from django.utils.deprecation import MiddlewareMixin
from django.utils.module_loading import import_string

# The libraries whose middlewares' hooks `OnLoop` calls on the event loop, at the versions
# they were read at (each hook does no I/O there).
PINNED = {"Django": "5.2.19", "django-csp": "4.0", "django-permissions-policy": "4.34.0"}
API_NAMESPACE = "api"  # api.site's NinjaAPI `urls_namespace`
API_ROOT = "api-root"  # django-ninja's pattern for the API's root, the reference page's URL


# -- which requests ------------------------------------------------------------------------

@functools.lru_cache(maxsize=4)
def _api_patterns(root: URLResolver) -> URLResolver:
    """The site's `path("api/", api.urls)` entry, found once per root resolver."""
    for entry in root.url_patterns:
        if isinstance(entry, URLResolver) and entry.namespace == API_NAMESPACE:
            return entry
    raise ImproperlyConfigured(f"ROOT_URLCONF includes no URL namespace {API_NAMESPACE!r}")


def takes(path_info: str) -> bool:
    """Is this path one of the NinjaAPI's operations (or its description), served by the
    lean stack? The reference page (`/api/`, the site's template) and an address under
    /api/ that no operation has (the site's 404 page) are not."""
    if not path_info.startswith("/api/"):
        return False
    try:
        match = _api_patterns(get_resolver()).resolve(path_info[1:])
    except Resolver404:
        return False
    return match.url_name != API_ROOT


def _path_info(scope: dict[str, Any]) -> str:
    """The scope's path as Django's ASGIRequest reads it: below the script prefix."""
    path = str(scope["path"])
    root = str(scope.get("root_path") or "")
    return path[len(root):] if root and path.startswith(root) else path


# -- the middlewares --------------------------------------------------------------------------

class OnLoop(MiddlewareMixin):
    """A MiddlewareMixin middleware whose hooks do no I/O, in async mode with its hooks
    called on the event loop (Django's `MiddlewareMixin.__acall__` sends each to a thread
    with `sync_to_async`). Its sync mode is Django's, unchanged."""

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        before = getattr(self, "process_request", None)
        response = before(request) if before is not None else None
        if response is None:
            inner = self.get_response(request)
            assert not isinstance(inner, HttpResponseBase)  # async mode: a coroutine
            response = await inner
        after = getattr(self, "process_response", None)
        if after is not None:
            response = after(request, response)
        assert isinstance(response, HttpResponseBase)
        return response


class SecurityMiddleware(OnLoop, security.SecurityMiddleware):
    """HTTPS redirect; HSTS, nosniff, Referrer-Policy, Cross-Origin-Opener-Policy."""


class CommonMiddleware(OnLoop, common.CommonMiddleware):
    """The Host checked against ALLOWED_HOSTS (`get_host`), Content-Length."""


class CSPMiddleware(OnLoop, csp.middleware.CSPMiddleware):
    """The site's Content-Security-Policy, as on every answer of the site."""


class XFrameOptionsMiddleware(OnLoop, clickjacking.XFrameOptionsMiddleware):
    """X-Frame-Options: DENY."""


# -- the stack ---------------------------------------------------------------------------------

class LeanStack(BaseHandler):
    """A handler whose middleware is `settings.API_MIDDLEWARE`: Django's
    `load_middleware` for a list of middlewares that each run both ways and have only
    `__call__` (no view, template-response or exception hooks), so none is adapted to
    the other mode and the chain is async all through under ASGI."""

    def load_middleware(self, is_async: bool = False) -> None:
        self._view_middleware: list[Any] = []
        self._template_response_middleware: list[Any] = []
        self._exception_middleware: list[Any] = []
        handler = convert_exception_to_response(
            self._get_response_async if is_async  # type: ignore[attr-defined]
            else self._get_response)  # type: ignore[attr-defined]
        for path in reversed(settings.API_MIDDLEWARE):
            middleware = import_string(path)
            if not (getattr(middleware, "sync_capable", True)
                    and getattr(middleware, "async_capable", False)):
                raise ImproperlyConfigured(f"API_MIDDLEWARE: {path} must run both sync "
                                           "and async")
            instance = middleware(handler)
            hooks = [hook for hook in ("process_view", "process_template_response",
                                       "process_exception") if hasattr(instance, hook)]
            if hooks:
                raise ImproperlyConfigured(f"API_MIDDLEWARE: {path} has {', '.join(hooks)}, "
                                           "which the API's stack does not run")
            handler = convert_exception_to_response(instance)
        self._middleware_chain = handler


class ApiASGIHandler(LeanStack, ASGIHandler):
    """Django's ASGI handler with the API's stack (its request, signals and sending are
    Django's own)."""


class ApiHandler(LeanStack):
    """The API's stack in sync mode, for `ApiRouteMiddleware`."""

    def __init__(self) -> None:
        super().__init__()
        self.load_middleware(is_async=False)

    def respond(self, request: HttpRequest) -> HttpResponseBase:
        """The answer through the API's stack (the outer handler logs it and closes it)."""
        response = self._middleware_chain(request)
        assert isinstance(response, HttpResponseBase)
        return response


class ApiRouteMiddleware:
    """First in MIDDLEWARE: under WSGI and the test client, the API's requests go through
    the API's stack (`ApiHandler`) instead of the rest of this one. Under ASGI they never
    reach it (`route` sent them aside). Not loaded when API_LEAN_PATH=0 at start, and
    passing everything on while it is 0 (a test's override)."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Any) -> None:
        if not settings.API_LEAN_PATH:
            raise MiddlewareNotUsed
        self.get_response = get_response
        self.api = ApiHandler()

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if settings.API_LEAN_PATH and takes(request.path_info):
            return self.api.respond(request)
        return self.get_response(request)


def route(site: Any, api: Any) -> Any:
    """The ASGI app for HTTP: the API's requests to `api` (an `ApiASGIHandler`) while
    API_LEAN_PATH is on, every other request to `site` (Django's own handler)."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if settings.API_LEAN_PATH and takes(_path_info(scope)):
            await api(scope, receive, send)
        else:
            await site(scope, receive, send)

    return app
