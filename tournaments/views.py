"""The tournament pages (docs/tournaments.md, "Pages"): thin, over `tournaments.pages` (what
is shown, an arena's sections too) and `tournaments.services` (every
change: create, join, withdraw; an arena's pause, resume and berserk). A refusal is
the service's `TournamentError`, shown on the form (create) or as a message (join,
withdraw); nothing changes then."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from tournaments import arena_pages, pages, services
from tournaments.forms import CreateTournamentForm
from tournaments.models import Tournament


def _index(request: HttpRequest, form: CreateTournamentForm | None = None,
           status: int = 200) -> HttpResponse:
    kinds = pages.tournament_kinds()
    key = request.GET.get("game") or None
    if key is not None and key not in {k.key for k in kinds}:
        raise Http404(f"no game {key!r} has tournaments")
    url = reverse("tournaments:index")
    groups = pages.listing(key)
    if form is None and request.user.is_authenticated:
        form = CreateTournamentForm(initial={"game": key} if key else None)
    return render(request, "tournaments/index.html", {
        "games": [{"key": None, "name": "All games", "url": url, "current": key is None},
                  *({"key": k.key, "name": k.name, "url": f"{url}?game={k.key}",
                     "current": k.key == key} for k in kinds)],
        "game_name": next((k.name for k in kinds if k.key == key), None),
        "game_key": key,
        "groups": [{"key": g, "label": label, "rows": groups[g]}
                   for g, label, _ in pages.GROUPS],
        "form": form,
    }, status=status)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return _index(request)


@require_POST
@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = CreateTournamentForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.create_tournament(
                name=data["name"], game_type=data["game"], rounds=data["rounds"] or 0,
                starts_at=form.start(), time_control=data["time_control"],
                rated=data["rated"], password=data["password"], created_by=request.user,
                system=data["system"], duration=data["duration"],
                round_pause=data.get("round_pause"))
        except services.TournamentError as refused:
            form.add_error(None, _sentence(str(refused)))
        else:
            messages.success(request, f"{tournament.name} is scheduled.")
            return redirect("tournaments:detail", tournament_id=tournament.id)
    return _index(request, form, status=400)


def _sentence(words: str) -> str:
    words = words[:1].upper() + words[1:]
    return words if words.endswith((".", "!", "?")) else words + "."


@require_GET
def detail(request: HttpRequest, tournament_id: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    viewer = pages.viewer_of(tournament, request.user)
    you = request.user.username if request.user.is_authenticated else ""
    context: dict[str, Any] = {
        **pages.section_context(tournament, pages.sections_of(tournament), you=you,
                                user=request.user, playing=viewer.playing),
        "viewer": viewer,
    }
    return render(request, "tournaments/detail.html", context)


@require_GET
def standings(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """An arena's whole standings, every line with its sheet, as of the request (the live
    page shows their top: `arena_pages.LINES_SHOWN`). A Swiss's page shows them whole."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not tournament.arena:
        return redirect("tournaments:detail", tournament_id=tournament.id)
    you = request.user.username if request.user.is_authenticated else ""
    return render(request, "tournaments/standings.html", {
        "t": tournament, "you": you, "game": pages.kind_name(tournament.game_type),
        "arena": arena_pages.arena_of(tournament, every_line=True)})


@require_POST
@login_required
def join(request: HttpRequest, tournament_id: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        services.join(tournament, request.user, request.POST.get("password", ""))
    except services.TournamentError as refused:
        messages.error(request, _sentence(str(refused)))
    else:
        messages.success(request, f"You have joined {tournament.name}.")
    return redirect("tournaments:detail", tournament_id=tournament.id)


@require_POST
@login_required
def withdraw(request: HttpRequest, tournament_id: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        services.withdraw(tournament, request.user)
    except services.TournamentError as refused:
        messages.error(request, _sentence(str(refused)))
    else:
        messages.success(request, f"You have withdrawn from {tournament.name}.")
    return redirect("tournaments:detail", tournament_id=tournament.id)


def _arena_request(request: HttpRequest, tournament_id: str, act: str) -> HttpResponse:
    """An arena player's pause, resume or berserk (`services.pause`, `resume`, `berserk`);
    a refusal is a message on the tournament's page. Berserk takes the player back to their
    game."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        getattr(services, act)(tournament, request.user)
    except services.TournamentError as refused:
        messages.error(request, _sentence(str(refused)))
    else:
        messages.success(request, {"pause": "You are paused: no new game until you resume.",
                                   "resume": "You are back: you will be paired when free.",
                                   "berserk": "Berserk: half your clock, one more point "
                                              "for a win."}[act])
        playing = arena_pages.game_of(tournament, request.user)
        if act == "berserk" and playing is not None:
            return redirect("games:game", playing)
    return redirect("tournaments:detail", tournament_id=tournament.id)


@require_POST
@login_required
def pause(request: HttpRequest, tournament_id: str) -> HttpResponse:
    return _arena_request(request, tournament_id, "pause")


@require_POST
@login_required
def resume(request: HttpRequest, tournament_id: str) -> HttpResponse:
    return _arena_request(request, tournament_id, "resume")


@require_POST
@login_required
def berserk(request: HttpRequest, tournament_id: str) -> HttpResponse:
    return _arena_request(request, tournament_id, "berserk")


@require_POST
@login_required
def berserk_game(request: HttpRequest, game_id: str) -> JsonResponse:
    """The game page's berserk button (`tournaments.game_extras`): `services.berserk_game`,
    answered in JSON: `{"ok": true}` (the game's socket brings the new clock and the
    mark), or 400 with `{"code": "refused", "message": ...}` and nothing changed."""
    try:
        services.berserk_game(game_id, request.user)
    except services.TournamentError as refused:
        return JsonResponse({"code": "refused", "message": _sentence(str(refused))},
                            status=400)
    return JsonResponse({"ok": True})
