"""The light and dark themes: the member's choice, kept in the `theme` cookie.

With no cookie the page follows the system (`prefers-color-scheme`, in static/css/theme.css).
A choice is "light" or "dark"; the server reads the cookie and renders
`<html data-theme="...">`, so the page arrives in the chosen theme with no flash and no
inline script. The header's switch (templates/base.html) is a form posting here, so it
works without JavaScript; static/js/site.js turns it into an instant toggle that writes the
same cookie. docs/front-end.md has the decisions.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

COOKIE = "theme"
THEMES = ("light", "dark")
MAX_AGE = 365 * 24 * 3600


def chosen(request: HttpRequest) -> str | None:
    """The theme this browser chose, or None to follow the system."""
    value = request.COOKIES.get(COOKIE)
    return value if value in THEMES else None


def context(request: HttpRequest) -> dict[str, Any]:
    """`theme`: the chosen theme or ""; `theme_next`: what the switch turns it to (with
    no choice the server cannot know the system's, so it offers light; the page's script
    corrects it from `matchMedia`)."""
    theme = chosen(request)
    return {"theme": theme or "", "theme_next": "light" if theme != "light" else "dark"}


@require_POST
def set_theme(request: HttpRequest) -> HttpResponse:
    theme = request.POST.get("theme", "")
    if theme not in THEMES:
        return HttpResponseBadRequest("theme must be light or dark")
    back = request.POST.get("next") or request.headers.get("referer") or "/"
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = "/"
    response = redirect(back)
    response.set_cookie(COOKIE, theme, max_age=MAX_AGE, samesite="Lax",
                        secure=settings.SESSION_COOKIE_SECURE, httponly=False)
    return response
