"""What the games app's pages share: a game or the 404, a refusal as its error frame's JSON
(with the status its code carries), the access checks' refusals (`games.access`: the page
and the JSON forms) and an integer parameter."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from games import access, services
from games.actors import actor_of
from games.frames import metrics
from games.frames.protocol import Code, GameError, NotFound
from games.models import Game


def game_or_404(game_id: str) -> Game:
    try:
        return services.get_game(game_id)
    except NotFound:
        raise Http404("no such game") from None


def refusal(refused: GameError) -> JsonResponse:
    metrics.refused(refused.code)
    return JsonResponse(refused.body(), status=refused.status)


def hidden(request: HttpRequest, game: Game) -> str | None:
    """Why this viewer may not see the game now (`games.access`), or None."""
    return access.hidden_reason(game, actor_of(request))


def hidden_page(request: HttpRequest, game: Game, reason: str) -> HttpResponse:
    return render(request, "games/hidden.html", {"game": game, "reason": reason}, status=403)


def hidden_json(reason: str) -> JsonResponse:
    return refusal(GameError(Code.HIDDEN, reason))


def int_param(value: Any, default: int | None = None) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
