from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from . import home as home_data
from .health import run_checks


def home(request: HttpRequest) -> HttpResponse:
    """A member's home (Play, their games, today's puzzles, who is online) or, signed out,
    the landing page."""
    if request.user.is_authenticated:
        return render(request, "home.html", home_data.member_home(request.user))
    return render(request, "home.html", home_data.visitor_home())


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    checks = await run_checks(settings.HEALTHZ_TIMEOUT_SECONDS)
    failed = [name for name, result in checks.items() if result != "ok"]
    body: dict[str, Any] = {"status": "error" if failed else "ok", "checks": checks}
    if failed:
        body["failed"] = failed
    return JsonResponse(body, status=503 if failed else 200)
