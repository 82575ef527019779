"""Thin views: parse, call a service, render or answer JSON. The page's plain-HTTP fallback
(turn, resign, events) answers the same objects as the WebSocket frames."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from . import services
from .guests import ensure_session, player_of
from .models import Challenge, Game
from .services import NotFound, Refused

REFUSED_STATUS = {"stale_ply": 409, "game_over": 409, "gone": 409, "not_a_player": 403,
                  "not_your_turn": 409, "not_found": 404}


def _game_or_404(game_id):
    try:
        return services.get_game(game_id)
    except NotFound:
        raise Http404("no such game") from None


def _refused(refused: Refused) -> JsonResponse:
    body = refused.frame()
    if refused.state is not None:
        body["state"] = refused.state
    return JsonResponse(body, status=REFUSED_STATUS.get(refused.code, 400))


def _int_param(value, default=None):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


# --- the game page and its HTTP fallback -----------------------------------------------------


@never_cache
def game(request, game_id):
    game = _game_or_404(game_id)
    if services.nudge_bot(game):  # a CargoBot turn that was lost is sent again
        game = _game_or_404(game_id)
    state = services.state_of(game, you=game.side_of(player_of(request)))
    kw = {"game_id": game.id}
    return render(request, "games/game.html", {
        "game": game,
        "state": state,
        "state_json": json.dumps(state),
        "ws_path": f"/ws/game/{game.id}/",
        "turn_url": reverse("games:turn", kwargs=kw),
        "resign_url": reverse("games:resign", kwargs=kw),
        "events_url": reverse("games:events", kwargs=kw),
        "record_url": reverse("games:record", kwargs=kw),
        "rematch_url": reverse("games:rematch", kwargs=kw),
        "replay_url": reverse("games:replay", kwargs=kw),
        "csrf_token": get_token(request),
        "view_template": "games/cargo-connect/view.html",
        "view_module": "js/cargo-connect/view.js",
    })


def _as_player(request, call) -> JsonResponse:
    """The HTTP fallback's writes: `call(player)` for a member or a guest with a session,
    its frame as JSON, or the refusal."""
    player = player_of(request)
    if not player.is_authenticated and not getattr(player, "guest_key", None):
        return _refused(Refused("not_a_player", "sign in to play"))
    try:
        return JsonResponse(call(player))
    except Refused as refused:
        return _refused(refused)


@require_POST
def turn(request, game_id):
    ply = _int_param(request.POST.get("ply"))
    token = request.POST.get("token", "")
    if ply is None or ply < 0 or not token or len(token) > services.MAX_TOKEN_LENGTH:
        return _refused(Refused("bad_frame", "a turn needs ply (an integer) and token"))
    return _as_player(request, lambda player: services.apply_turn(
        game_id, player=player, ply=ply, token=token).frame)


@require_POST
def resign(request, game_id):
    ply = _int_param(request.POST.get("ply"))
    return _as_player(request, lambda player: services.resign(game_id, player=player, ply=ply))


@never_cache
@require_GET
def events(request, game_id):
    after = _int_param(request.GET.get("after"), 0)
    game = _game_or_404(game_id)
    try:
        data = services.catch_up(game.id, after=after, you=game.side_of(player_of(request)))
    except Refused as refused:
        return _refused(refused)
    return JsonResponse(data)


@require_POST
def rematch(request, game_id):
    return _as_player(request, lambda player: services.offer_rematch(game_id, user=player))


@require_GET
def replay(request, game_id):
    game = _game_or_404(game_id)
    data = services.replay_data(game.id)
    return render(request, "games/replay.html", {
        "game": game,
        "replay_json": json.dumps(data),
        "replay": data,
        "record_url": reverse("games:record", kwargs={"game_id": game.id}),
        "game_url": reverse("games:game", kwargs={"game_id": game.id}),
    })


@require_GET
def replay_json(request, game_id):
    try:
        return JsonResponse(services.replay_data(game_id))
    except NotFound:
        raise Http404("no such game") from None


@require_GET
def record(request, game_id):
    site = request.build_absolute_uri("/").rstrip("/")
    try:
        game, text = services.record_text(game_id, site=site)
    except NotFound:
        raise Http404("no such game") from None
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="cargo-{game.id}.ccn"'
    return response


# --- lobby and challenges --------------------------------------------------------------------


def lobby(request):
    mine = []
    if request.user.is_authenticated:
        mine = Challenge.objects.filter(creator=request.user, status=Challenge.Status.OPEN)
    return render(request, "games/lobby.html", {
        "seeks": services.open_seeks(),
        "my_challenges": mine,
        "my_bot_games": services.active_bot_games(player_of(request)),
        "sizes": range(services.MIN_SIZE, services.MAX_SIZE + 1),
        "colors": Challenge.Color.choices,
        "bot_levels": [(level, services.bot_name(level), rating)
                       for level, rating in services.BOT_RATINGS.items()],
        "seeks_url": reverse("games:seeks_json"),
        "lobby_ws_path": "/ws/lobby/",
    })


@require_POST
def create_bot_game(request):
    """Play CargoBot: members and guests alike (a guest's game belongs to this browser
    session, which is made here if there is none)."""
    user = request.user if request.user.is_authenticated else None
    try:
        game = services.create_bot_game(
            user=user, guest_key=None if user else ensure_session(request),
            level=request.POST.get("level", Game.BotLevel.EASY),
            size=request.POST.get("size", 6), color=request.POST.get("color", "random"),
        )
    except Refused as refused:
        messages.error(request, refused.message)
        return redirect("games:index")
    return redirect("games:game", game_id=game.id)


@never_cache
@require_GET
def seeks_json(request):
    return JsonResponse({"seeks": services.open_seeks()})


@login_required
@require_POST
def create_seek(request):
    public = request.POST.get("mode", "lobby") != "link"
    try:
        challenge = services.create_challenge(
            request.user, size=request.POST.get("size", 6),
            color=request.POST.get("color", "random"), public=public,
        )
    except Refused as refused:
        messages.error(request, refused.message)
        return redirect("games:index")
    if public:
        return redirect("games:index")
    return redirect("games:challenge", challenge_id=challenge.id)


def _challenge_or_404(challenge_id):
    try:
        return Challenge.objects.select_related("creator", "game").get(id=challenge_id)
    except Challenge.DoesNotExist:
        raise Http404("no such challenge") from None


@login_required
@require_GET
def challenge(request, challenge_id):
    """The link of a challenge: its creator waits here; whoever follows it may accept."""
    challenge = _challenge_or_404(challenge_id)
    if challenge.game_id and challenge.game.side_of(request.user):
        return redirect("games:game", game_id=challenge.game_id)
    return render(request, "games/challenge.html", {
        "challenge": challenge,
        "is_creator": challenge.creator_id == request.user.pk,
        "link": request.build_absolute_uri(),
        "status_url": reverse("games:challenge_json", kwargs={"challenge_id": challenge.id}),
        "lobby_ws_path": "/ws/lobby/",
    })


@never_cache
@login_required
@require_GET
def challenge_json(request, challenge_id):
    challenge = _challenge_or_404(challenge_id)
    body = {"id": challenge.id, "status": challenge.status, "game": None, "url": None}
    if challenge.game_id and challenge.game.side_of(request.user):
        body["game"] = challenge.game_id
        body["url"] = reverse("games:game", kwargs={"game_id": challenge.game_id})
    return JsonResponse(body)


@login_required
@require_POST
def accept(request, challenge_id):
    try:
        game = services.accept_challenge(request.user, challenge_id)
    except NotFound:
        raise Http404("no such challenge") from None
    except Refused as refused:
        messages.error(request, refused.message)
        return redirect("games:index")
    return redirect("games:game", game_id=game.id)


@login_required
@require_POST
def cancel(request, challenge_id):
    try:
        services.cancel_challenge(request.user, challenge_id)
    except Refused as refused:
        messages.error(request, refused.message)
    return redirect("games:index")
