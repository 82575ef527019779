"""The "Your turn" page (`/games/waiting`): a member's games in progress, the ones waiting
for them first, with each deadline (games.tables.waiting). A visitor is told to sign in."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.tables.waiting import waiting_games


@never_cache
@require_GET
def waiting(request: HttpRequest) -> HttpResponse:
    games = waiting_games(request.user) if request.user.is_authenticated else []
    return render(request, "games/waiting.html", {
        "games": games, "yours": sum(1 for g in games if g.waiting_for_you)})
