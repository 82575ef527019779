"""The site's error pages: 400, 403, 404 and 500 in the site's style, each with a way back.

Django renders `400.html`, `403.html`, `404.html` and `500.html` itself when DEBUG is off;
the handlers here (cargosite/urls.py `handler400` ...) give the first three the request's
context (the header, the theme) and a message. 500 is cargosite/unavailable.py's
`server_error`: a 503 when the database does not answer, else Django's own handler, which
renders `500.html` without a request context, on purpose, since the error may be in what
builds one.

With DEBUG on Django shows its technical 404 instead; views that answer "no such game" or
"no such player" to members (the game pages, the profiles) wear `@styled_404`, so they show
the styled page with that message whatever DEBUG says.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
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
    game"); Django's resolver's are not (they hold the URL patterns)."""
    if isinstance(exception, Http404) and exception.args and isinstance(exception.args[0], str):
        return exception.args[0][:1].upper() + exception.args[0][1:] + "."
    return DEFAULT_MESSAGES[status]


def error_page(request: HttpRequest, status: int, message: str | None = None) -> HttpResponse:
    return render(request, f"{status}.html", {
        "status": status,
        "title": TITLES[status],
        "message": message or DEFAULT_MESSAGES[status],
    }, status=status)


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
