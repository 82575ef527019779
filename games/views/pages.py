"""A game's own pages: the live game page (drawn by the kind's view, `view_template` and
`view_module`), its plain-HTTP fallback (turn, resign, abort, claim, events, rematch), the
replay page and its JSON (drawn by the kind's replay view, `replay_template` and
`replay_module`; built for the asking viewer, games.records.history.replay_viewer; a kind without
one: a 404 that says so) and the record download. The fallback answers the same objects as
the WebSocket frames; a refusal answers its error frame with the status its code carries."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from common.errors import styled_404
from games import access, services
from games.actors import Actor, actor_of, seat_left_by
from games.frames import presence
from games.frames.protocol import Code, GameError, NotFound, game_socket_path
from games.frames.states import left_info
from games.kinds import Viewer, longest_token
from games.models import Game
from games.timing import clocks
from games.titles import titled
from games.views.shared import game_or_404, hidden, hidden_json, hidden_page, int_param, refusal


def players_title(state: dict[str, Any]) -> str:
    """The page title's words for a game: its seats' holders, "marta vs kofi" (a BOT
    account's name with its title: "BOT marta")."""
    return " vs ".join(titled(seat["name"], seat.get("title")) if seat.get("name")
                       else seat.get("label") or "?" for seat in state.get("seats", []))


def spectator_count(game_id: str) -> int:
    try:
        return presence.spectators(game_id)
    except Exception:  # the presence store is down: say none rather than fail the page
        return 0


# --- the game page and its HTTP fallback -----------------------------------------------------


def opened(game_id: str) -> Game:
    """The game as its page or JSON opens it: the checks on opening run first, and a due
    flag (a missed correspondence deadline too) falls now (docs/clocks.md)."""
    game = game_or_404(game_id)
    if access.run_open_checks(game) or services.flag_if_due(game):  # it ended on opening
        game = game_or_404(game_id)
    return game


@never_cache
@styled_404
def game(request: HttpRequest, game_id: str) -> HttpResponse:
    game = opened(game_id)
    reason = hidden(request, game)
    if reason:
        return hidden_page(request, game, reason)
    if services.nudge_bot(game):  # a bot's turn that was lost is sent again
        game = game_or_404(game_id)
    kind = game.kind
    actor = actor_of(request)
    seat = services.seat_of(game, actor)
    state = services.with_queue(services.state_of(game, viewer=seat), game, seat)
    kw = {"game_id": game.id}
    return render(request, "games/game.html", {
        "game": game,
        "heading": heading_of(game),
        "state": state,
        "state_json": json.dumps(state),
        "players_title": players_title(state),
        "spectators": spectator_count(game.id),
        "left_note": watching_why(game, actor) if seat is None else None,
        "view_template": kind.view_template,
        "view_module": kind.view_module,
        "ws_path": game_socket_path(game.id),
        "turn_url": reverse("games:turn", kwargs=kw),
        "resign_url": reverse("games:resign", kwargs=kw),
        "abort_url": reverse("games:abort", kwargs=kw),
        "claim_url": reverse("games:claim", kwargs=kw),
        "events_url": reverse("games:events", kwargs=kw),
        "record_url": reverse("games:record", kwargs=kw),
        # A Daily Challenge game has no rematch (games.turns.play.offer_rematch): no button.
        "rematch_url": reverse("games:rematch", kwargs=kw)
        if game.mode != Game.Mode.DAILY else "",
        "replay_url": reverse("games:replay", kwargs=kw) if kind.replay_template else "",
        "review_url": reverse("games:review", kwargs=kw) if game.kind.review_version else "",
        "csrf_token": get_token(request),
    })


def watching_why(game: Game, actor: Actor | None) -> str | None:
    """Why a player who left the game watches it now, in a sentence for them ("You timed
    out twice in a row in round 4: ExpressBot Medium plays your seat"); None for anyone
    else."""
    seat = seat_left_by(game, actor)
    left = left_info(game, seat) if seat is not None else None
    if left is None:
        return None
    when = f" in round {left['round']}" if left["round"] else ""
    if game.status == Game.Status.ABORTED:
        return f"You {left['why']}{when}; every person left, so the game was aborted."
    if left["name"]:
        return f"You {left['why']}{when}: {left['name']} plays your seat, so you are " \
            "watching."
    return f"You {left['why']}{when}, the last person at the table: the game ended."


def heading_of(game: Game) -> dict[str, Any]:
    """What the game page's header says the game is (issue #27: it said only "Shift <id>"):
    a mode's registered heading (the Daily Challenge's: date, difficulty, ranked or
    practice), else the game's name and facts: rated or casual, against which CargoBot, the
    time control, the bay's size."""
    said = access.heading_for(game)
    if said:
        return said
    facts = []
    if game.mode == Game.Mode.BOT:
        against = services.bots_in_words(game)
        facts.append(f"Casual, against {against}" if against else "Casual")
    else:
        facts.append("Rated" if game.rated else "Casual")
    control = clocks.control_of(game)
    facts.append(control.label if control is not None else "Untimed")
    if game.size:
        facts.append(f"{game.size}×{game.size}")
    return {"title": game.kind.name, "facts": facts}


def _as_player(request: HttpRequest, call: Callable[[Actor], dict[str, Any]]) -> JsonResponse:
    """The HTTP fallback's writes: `call(actor)` for a member or a guest with a session,
    its frame as JSON, or the refusal."""
    actor = actor_of(request)
    if actor is None:
        return refusal(GameError(Code.NOT_A_PLAYER, "sign in to play"))
    try:
        return JsonResponse(call(actor))
    except GameError as refused:
        return refusal(refused)


@require_POST
def turn(request: HttpRequest, game_id: str) -> JsonResponse:
    ply = int_param(request.POST.get("ply"))
    token = request.POST.get("token", "")
    if ply is None or ply < 0 or not token or len(token) > longest_token():
        return refusal(GameError(Code.BAD_FRAME, "a turn needs ply (an integer) and token"))
    access.run_open_checks_for(game_id)
    return _as_player(request, lambda actor: services.apply_turn(
        game_id, actor=actor, ply=ply, token=token).frame)


@require_POST
def resign(request: HttpRequest, game_id: str) -> JsonResponse:
    ply = int_param(request.POST.get("ply"))
    access.run_open_checks_for(game_id)
    return _as_player(request, lambda actor: services.resign(game_id, actor=actor, ply=ply))


@require_POST
def abort(request: HttpRequest, game_id: str) -> JsonResponse:
    return _as_player(request, lambda actor: services.abort_game(game_id, actor=actor))


@require_POST
def claim(request: HttpRequest, game_id: str) -> JsonResponse:
    """The socket's `claim` over HTTP: `result` (win or draw) with two seats, or `seat` (the
    away seat handed to its stand-in) with more (games.timing.abandonment)."""
    if "seat" in request.POST and "result" not in request.POST:
        seat = int_param(request.POST.get("seat"))
        if seat is None:
            return refusal(GameError(Code.BAD_FRAME, "a seat claim needs seat: a number"))
        return _as_player(request, lambda actor: services.claim_seat(game_id, actor=actor,
                                                                     seat=seat))
    result = request.POST.get("result", "")
    if result not in ("win", "draw"):
        return refusal(GameError(Code.BAD_FRAME, "a claim needs result: win or draw, or "
                                 "(more than two seats) seat"))
    return _as_player(request, lambda actor: services.claim_game(game_id, actor=actor,
                                                                 result=result))


@never_cache
@require_GET
def events(request: HttpRequest, game_id: str) -> JsonResponse:
    after = int_param(request.GET.get("after"), 0) or 0
    game = opened(game_id)
    reason = hidden(request, game)
    if reason:
        return hidden_json(reason)
    try:
        data = services.catch_up(game.id, after=after,
                                 viewer=services.seat_of(game, actor_of(request)))
    except GameError as refused:
        return refusal(refused)
    return JsonResponse(data)


@require_POST
def rematch(request: HttpRequest, game_id: str) -> JsonResponse:
    return _as_player(request, lambda actor: services.offer_rematch(game_id, actor=actor))


@require_GET
@styled_404
def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    game = game_or_404(game_id)
    reason = hidden(request, game)
    if reason:
        return hidden_page(request, game, reason)
    kind = game.kind
    if not kind.replay_template:
        raise Http404(f"{kind.name} games have no replay page; the record can be downloaded "
                      "from the game page.")
    data = services.replay_data(game.id, viewer=_replay_viewer(request, game))
    payload = json.dumps(data)
    return render(request, "games/replay.html", {
        "game": game,
        "replay_json": payload,
        "replay_script": script_json(payload, "replay-data"),
        "replay": data,
        "replay_template": kind.replay_template,
        "replay_module": kind.replay_module,
        "record_url": reverse("games:record", kwargs={"game_id": game.id}),
        "game_url": reverse("games:game", kwargs={"game_id": game.id}),
        "review_url": reverse("games:review", kwargs={"game_id": game.id})
        if game.is_over and game.kind.review_version else "",
    })


def script_json(payload: str, element_id: str) -> SafeString:
    """JSON text in a `<script id=… type="application/json">` tag, escaped as Django's
    `json_script` escapes it (`<`, `>` and `&` as \\u escapes), by `str.replace`:
    `json_script`'s `str.translate` took about a second of a finished Cargo Express game's
    replay page here (4 MB of states), and it encoded the data a second time. The whole tag
    is made here, as `json_script` makes it: templates hold no inline script."""
    escaped = payload.replace("&", "\\u0026").replace("<", "\\u003C").replace(">", "\\u003E")
    return mark_safe(f'<script id="{element_id}" type="application/json">'  # noqa: S308
                     f"{escaped}</script>")


def _replay_viewer(request: HttpRequest, game: Game) -> Viewer:
    """The replay's viewer: the asker's seat, or once the game is over `?as=K` (a seat's
    view) or everything (games.records.history.replay_viewer)."""
    return services.replay_viewer(game, services.seat_of(game, actor_of(request)),
                                  request.GET.get("as"))


@require_GET
def replay_json(request: HttpRequest, game_id: str) -> JsonResponse:
    game = game_or_404(game_id)
    reason = hidden(request, game)
    if reason:
        return hidden_json(reason)
    try:
        return JsonResponse(services.replay_data(game_id,
                                                 viewer=_replay_viewer(request, game)))
    except NotFound:
        raise Http404("no such game") from None


@require_GET
@styled_404
def record(request: HttpRequest, game_id: str) -> HttpResponse:
    site = request.build_absolute_uri("/").rstrip("/")
    shown = game_or_404(game_id)
    reason = hidden(request, shown)
    if reason:
        return hidden_page(request, shown, reason)
    try:
        game, text = services.record_text(game_id, site=site)
    except NotFound:
        raise Http404("no such game") from None
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="cargo-{game.id}.ccn"'
    return response

