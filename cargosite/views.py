from functools import cache
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

from . import home as home_data
from .health import run_checks


def home(request: HttpRequest) -> HttpResponse:
    """A member's home (Play, their games, today's puzzles, who is online) or, signed out,
    the landing page."""
    if request.user.is_authenticated:
        return render(request, "home.html", home_data.member_home(request.user))
    return render(request, "home.html", home_data.visitor_home())


@cache
def _favicon() -> bytes:
    return (settings.BASE_DIR / "static" / "favicon.svg").read_bytes()


@require_GET
@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    """The site's icon at /favicon.ico, where browsers look when a page names none (the
    admin's pages, a JSON answer, an error from outside the templates): the SVG every
    page links, so that nothing asks for it and gets a 404."""
    return HttpResponse(_favicon(), content_type="image/svg+xml")


@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """The live path's counters in Prometheus's text format (games/frames/metrics.py), when
    METRICS_ENABLED; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`."""
    from games.frames.metrics import CONTENT_TYPE, exposition

    if not settings.METRICS_ENABLED:
        raise Http404("metrics are off (METRICS_ENABLED)")
    token = settings.METRICS_TOKEN
    if token and not constant_time_compare(request.headers.get("Authorization", ""),
                                           f"Bearer {token}"):
        return HttpResponse("a metrics token is needed\n", status=401,
                            content_type="text/plain")
    return HttpResponse(exposition(), content_type=CONTENT_TYPE)


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    checks = await run_checks(settings.HEALTHZ_TIMEOUT_SECONDS)
    failed = [name for name, result in checks.items() if result != "ok"]
    body: dict[str, Any] = {"status": "error" if failed else "ok", "checks": checks}
    if failed:
        body["failed"] = failed
    return JsonResponse(body, status=503 if failed else 200)
