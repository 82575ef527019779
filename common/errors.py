"""The site's error pages: 400, 403, 404 and 500 in the site's style, each with a way back.

Django renders `400.html`, `403.html`, `404.html` and `500.html` itself when DEBUG is off;
the handlers here (cargosite/urls.py `handler400` ...) give the first three the request's
context (the header, the theme) and a message. 500 is cargosite/unavailable.py's
`server_error`: a 503 when the database does not answer, else Django's own handler, which
renders `500.html` without a request context, on purpose, since the error may be in what
builds one.

Every 404 is the site's page whatever DEBUG says (issue #27; the embedded default, `make
run`, runs with DEBUG on, where Django would show its technical 404 with the URL list):
`SiteNotFoundMiddleware` answers a view's Http404 with the styled page and its message, and
replaces the resolver's 404 (no URL pattern matched) with the styled page. A view's own 404
answer (a JSON error, the "opens on its day" page) is left as it is. `@styled_404`, which
the game and profile views wore for this before, now changes nothing and is kept for them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render

TITLES = {
    400: "Bad request",
    403: "Not allowed",
    404: "Not found",
    500: "Something broke",
}
DEFAULT_MESSAGES = {
    400: "The request could not be understood.",
    403: "You may not see this page.",
    404: "There is no page at this address.",
}


def _message(exception: Any, status: int) -> str:
    """The exception's own words when they are meant for people (ours are: "no such
    game"), as a sentence: a capital first, one full stop at the end (a message that
    already ends a sentence keeps its own: issue #42, "have no review.."); Django's
    resolver's words are not for people (they hold the URL patterns)."""
    if isinstance(exception, Http404) and exception.args and isinstance(exception.args[0], str):
        words = exception.args[0].strip()
        words = words[:1].upper() + words[1:]
        return words if words.endswith((".", "!", "?")) else words + "."
    return DEFAULT_MESSAGES[status]


def error_page(request: HttpRequest, status: int, message: str | None = None) -> HttpResponse:
    response = render(request, f"{status}.html", {
        "status": status,
        "title": TITLES[status],
        "message": message or DEFAULT_MESSAGES[status],
    }, status=status)
    response.site_page = True  # type: ignore[attr-defined]  # SiteNotFoundMiddleware
    return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return error_page(request, 400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return error_page(request, 403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return error_page(request, 404, _message(exception, 404))


def styled_404(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view's Http404 as the styled 404 page, also with DEBUG on."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Http404 as missing:
            return error_page(request, 404, _message(missing, 404))

    return wrapper


class SiteNotFoundMiddleware:
    """Every 404 as the site's page, with DEBUG on as off (the module's docstring).

    - An Http404 a view raises (`process_exception`): the styled page with its message.
    - No URL pattern matched (the resolver's 404, raised before any view, so no
      `process_exception`): the request has no `resolver_match`; its 404 response, whichever
      Django made (the technical page with DEBUG on, `handler404` without), becomes the
      styled page.
    Placed after the authentication and messages middleware, so the page has the member's
    header and theme.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (response.status_code == 404 and getattr(request, "resolver_match", None) is None
                and not getattr(response, "site_page", False)):
            return page_not_found(request, Http404())
        return response

    def process_exception(self, request: HttpRequest,
                          exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Http404):
            return page_not_found(request, exception)
        return None
