"""The game review (docs/review.md), for a kind that reviews (`GameKind.review_version`;
another kind's review URLs are a 404 that says so): the review page (drawn by the kind's
`review_template` and `review_module`), starting a review, its progress as JSON, and the
analysis board."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.errors import styled_404
from games import services
from games.frames.protocol import Code, GameError
from games.views.shared import game_or_404, int_param, refusal

MAX_LINE_TEXT = 2000  # the analysis board's trial turns, as text


@never_cache
@styled_404
def review(request: HttpRequest, game_id: str) -> HttpResponse:
    """GET: the review page (or a refusal: not finished, the spoiler shield). POST: start
    the review (cached once done), then back to the page."""
    game = game_or_404(game_id)
    kind = game.kind
    if not (kind.review_version and kind.review_template):
        raise Http404(f"{kind.name} games have no review.")
    if request.method == "POST":
        try:
            services.request_review(game.id)
        except GameError as refused:
            messages.error(request, refused.message)
        return redirect("games:review", game_id=game.id)
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    kw = {"game_id": game.id}
    context: dict[str, Any] = {"game": game, "game_url": reverse("games:game", kwargs=kw),
                               "review_template": kind.review_template,
                               "review_module": kind.review_module}
    try:
        services.check_reviewable(game)
    except GameError as refused:
        context["refused"] = refused.message
        return render(request, "games/review.html", context, status=refused.status)
    data = services.review_page_data(game)
    context.update(data)
    context.update({
        # A finished game: the whole of it (everything, for a kind that hides information).
        "replay": services.replay_data(game.id, viewer=services.replay_viewer(game, None)),
        "review_url": reverse("games:review", kwargs=kw),
        "status_url": reverse("games:review_json", kwargs=kw),
        "analysis_url": reverse("games:analysis", kwargs=kw),
        "record_url": reverse("games:record", kwargs=kw),
        "running": data["status"]["status"] in ("queued", "running"),
    })
    return render(request, "games/review.html", context)


@never_cache
@require_GET
def review_json(request: HttpRequest, game_id: str) -> JsonResponse:
    game = game_or_404(game_id)
    try:
        services.check_reviewable(game)
    except GameError as refused:
        return refusal(refused)
    return JsonResponse(services.review_status(game))


@never_cache
@require_GET
def analysis(request: HttpRequest, game_id: str) -> JsonResponse:
    """The analysis board: `?ply=K&line=t1 t2 ...` (trial turns after the game's first K
    turns); checked by the engine, nothing stored."""
    ply = int_param(request.GET.get("ply"))
    text = request.GET.get("line", "")
    if ply is None or len(text) > MAX_LINE_TEXT:
        return refusal(GameError(Code.BAD_REQUEST, "the analysis board needs ply (an integer) "
                                  "and a line of trial turns separated by spaces"))
    game = game_or_404(game_id)
    try:
        return JsonResponse(services.analyse(game.id, ply=ply, line=text.split()))
    except GameError as refused:
        return refusal(refused)