"""The lobby and tables (docs/tables.md): the lobby page with each kind's seek form, seeks
and quick play, games against CargoBot and against a kind's bots at a table of several
seats (docs/bot-games.md), and a table's page (a challenge by link): join,
leave, start, cancel, and its JSON the page watches."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from common.errors import styled_404
from games import services, titles
from games.actors import Actor, actor_of, ensure_session
from games.frames.protocol import LOBBY_SOCKET_PATH, GameError, NotFound
from games.kinds import GameKind, all_kinds, default_kind, first_kinds_first
from games.models import Challenge, Game, TableSeat
from games.tables.forms import (
    BOT_CHOICES,
    UNTIMED,
    BotGameForm,
    SeekForm,
    bots_form,
    first_error,
    level_field,
    plays_bots_at_tables,
    seek_choices,
    seek_default,
)
from games.tables.lobby import MIN_PEOPLE, join_table, my_challenges, quick_pair, seek_info
from games.views.shared import int_param


def _lobby_kinds() -> list[GameKind]:
    """The kinds the lobby offers, the default game first (settings.DEFAULT_GAME_KIND)."""
    return first_kinds_first([k for k in all_kinds() if k.in_lobby])


def _lobby_kind(key: str | None) -> GameKind:
    kinds = _lobby_kinds()
    return next((k for k in kinds if k.key == key), kinds[0])


def _bot_choice(kind: GameKind, level: str) -> str:
    """A bot level as the panel offers it: its name, and its fixed rating if it has one."""
    rating = kind.bot_ratings.get(level)
    return f"{kind.bot_name(level)} ({rating})" if rating else kind.bot_name(level)


def _option_groups(kind: GameKind) -> list[dict[str, Any]]:
    """The kind's option fields, drawn as rows of pills (templates/games/_choices.html)."""
    return [{"legend": f.label, "name": f.name, "checked": f.default,
             "choices": [(value, label) for value, label in f.choices], "hint": f.hint}
            for f in kind.option_fields if f.kind == "choice"]


def _table_groups(kind: GameKind) -> list[dict[str, Any]]:
    """The table's own choices beyond the options: the player count (when the kind has
    several) and, when a table has room for them, a bot or a person in each other seat."""
    groups: list[dict[str, Any]] = []
    if len(kind.seat_counts) > 1:
        groups.append({"legend": "Players", "name": "seats", "checked": kind.default_seat_count,
                       "choices": [(n, str(n)) for n in kind.seat_counts]})
    most = kind.default_seat_count
    if kind.bot_levels and most - MIN_PEOPLE > 0:
        bots = [("", "A person"), *((level, kind.bot_name(level)) for level in kind.bot_levels)]
        for index in range(1, most):
            label, named = f"Seat {index + 1}", kind.seat_label(index)
            groups.append({"legend": label if named == label else f"{label} ({named})",
                           "name": f"bot_{index}", "checked": "", "choices": bots})
    return groups


def _bots_hint(kind: GameKind) -> str:
    """Which tables take bots: at least `MIN_PEOPLE` people sit at a table."""
    counts = [n for n in kind.seat_counts if n > MIN_PEOPLE]
    if not counts or not kind.bot_levels:
        return ""
    most = max(n - MIN_PEOPLE for n in counts)
    sizes = " and ".join(f"{n}-player" for n in counts)
    return (f"Bots sit only at casual {sizes} tables, at most {most}: a table is for at "
            f"least {MIN_PEOPLE} people. A seat left to a person is filled by whoever joins, "
            "or by a bot if you start early.")


def lobby(request: HttpRequest) -> HttpResponse:
    kinds = _lobby_kinds()
    chosen = _lobby_kind(request.GET.get("game"))
    me = request.user.get_username() if request.user.is_authenticated else None
    seeks = [{**seek, "mine": seek["by"] == me,
              "seated": me is not None and me in seek["people"]}
             for seek in services.open_seeks()]
    seeks.sort(key=lambda seek: not seek["mine"])  # your own seek first, waiting
    kind = default_kind()  # the panel of one game against one bot: the default game's
    levels = list(kind.bot_levels)
    seats = chosen.default_seat_count
    return render(request, "games/lobby.html", {
        "seeks": seeks,
        "link_challenges": [c for c in my_challenges(request.user) if not c.public],
        "my_bot_games": [_bot_game_row(g) for g in services.active_bot_games(actor_of(request))],
        "bots_form": bots_form(chosen, request.user.is_authenticated)
        if plays_bots_at_tables(chosen) else None,
        "kinds": [{"key": k.key, "name": k.name, "current": k is chosen} for k in kinds],
        "several_kinds": len(kinds) > 1,
        "kind": chosen,
        "option_groups": _option_groups(chosen),
        "count_groups": [g for g in _table_groups(chosen) if g["name"] == "seats"],
        "bot_groups": [g for g in _table_groups(chosen) if g["name"] != "seats"],
        "bots_hint": _bots_hint(chosen),
        "color_choices": [("random", "Random"), *((chosen.seat_key(i), chosen.seat_label(i))
                                                  for i in range(seats))],
        "rated_choices": [("rated", "Rated"), ("casual", "Casual")],
        "bot_option_groups": _option_groups(kind),
        "bot_color_choices": [("random", "Random"), *((kind.seat_key(i), kind.seat_label(i))
                                                      for i in range(2))],
        "rules": chosen.rules_version,
        "bot_choices": [(level, _bot_choice(kind, level)) for level in levels],
        "bot_default": levels[0],
        "seek_time_choices": seek_choices(chosen),
        "seek_time_default": seek_default(chosen),
        "bot_time_choices": BOT_CHOICES,
        "bot_time_default": UNTIMED,
        "seeks_url": reverse("games:seeks_json"),
        "lobby_ws_path": LOBBY_SOCKET_PATH,
    })


@require_POST
def create_bot_game(request: HttpRequest) -> HttpResponse:
    """Play CargoBot: members and guests alike (a guest's game belongs to this browser
    session, which is made here if there is none)."""
    form = BotGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("games:index")
    actor = Actor.member(request.user) if request.user.is_authenticated \
        else Actor.guest(ensure_session(request))
    kind = default_kind()
    try:
        game = services.create_bot_game(
            actor=actor, level=request.POST.get("level", kind.bot_levels[0]),
            game_type=kind.key,
            options=kind.options_from(request.POST),
            seat=request.POST.get("color", "random"),
            time_control=form.cleaned_data["time_control"],
        )
    except GameError as refused:
        messages.error(request, refused.message)
        return redirect("games:index")
    return redirect("games:game", game_id=game.id)


def _bot_game_row(game: Game) -> dict[str, Any]:
    """A game against bots in the lobby's list: "6×6 against CargoBot Easy (you play
    Blue)", "Cargo Express against ExpressBot Easy and ExpressBot Hard (you play Seat 2)"."""
    kind = game.kind
    what = kind.describe_options(game.options) or kind.name
    against = services.bots_in_words(game)
    humans = game.human_seats
    you = kind.seat_label(humans[0]) if humans else ""
    return {"id": game.id, "words": f"{what} against {against}", "you": you}


@require_POST
def play_bots(request: HttpRequest) -> HttpResponse:
    """Play against bots at a table of several seats (Cargo Express against 1-3
    ExpressBots): `game_type`, `players`, a level per bot (`level_1`...), the person's
    `seat` (a seat key or "random"), `time_control`. Members and guests alike (a browser
    session is made for a visitor who has none); casual; the game starts at once."""
    kind = next((k for k in _lobby_kinds() if k.key == request.POST.get("game_type")
                 and plays_bots_at_tables(k)), None)
    if kind is None:
        messages.error(request, "Choose a game played against bots at a table: "
                       + ", ".join(k.name for k in _lobby_kinds() if plays_bots_at_tables(k))
                       + ".")
        return redirect("games:index")
    form = BotGameForm(request.POST, kind=kind)
    players = int_param(request.POST.get("players"))
    if not form.is_valid() or players is None:
        messages.error(request, first_error(form) if not form.is_valid() else
                       f"Choose how many play: {', '.join(map(str, kind.seat_counts))}.")
        return redirect(kind.lobby_url())
    actor = Actor.member(request.user) if request.user.is_authenticated \
        else Actor.guest(ensure_session(request))
    levels = [request.POST.get(level_field(i), "") for i in range(1, max(players, 1))]
    try:
        game = services.create_game_against_bots(
            actor=actor, game_type=kind.key, levels=levels,
            seat=request.POST.get("seat", "random"),
            time_control=form.cleaned_data["time_control"],
            options=kind.options_from(request.POST))
    except GameError as refused:
        messages.error(request, refused.message[:1].upper() + refused.message[1:] + ".")
        return redirect(kind.lobby_url())
    return redirect("games:game", game_id=game.id)


@never_cache
@require_GET
def seeks_json(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"seeks": services.open_seeks()})


def _bots_posted(request: HttpRequest, kind: GameKind) -> dict[int, str]:
    return {i: request.POST.get(f"bot_{i}", "") for i in range(max(kind.seat_counts))}


@login_required
@require_POST
def create_seek(request: HttpRequest) -> HttpResponse:
    """A table of the chosen kind (`game_type`), with its options from the kind's fields."""
    public = request.POST.get("mode", "lobby") != "link"
    kind = _lobby_kind(request.POST.get("game_type", settings.DEFAULT_GAME_KIND))
    form = SeekForm(request.POST, kind=kind)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(kind.lobby_url())
    try:
        challenge = services.create_challenge(
            request.user, options=kind.options_from(request.POST), game_type=kind.key,
            color=request.POST.get("color", "random"), public=public,
            time_control=form.cleaned_data["time_control"],
            seats=int_param(request.POST.get("seats")),
            rated=request.POST.get("rated", "rated") != "casual",
            bots=_bots_posted(request, kind),
        )
    except GameError as refused:
        messages.error(request, refused.message)
        return redirect(kind.lobby_url())
    if public:
        return redirect(kind.lobby_url())
    return redirect("games:challenge", challenge_id=challenge.id)


@login_required
@require_POST
def quick_play(request: HttpRequest) -> HttpResponse:
    """A Play button: into a waiting seek with the same options and time control, or a
    new seek of ours (then the lobby shows it waiting). The form's fields are the kind's
    options and the time control (10+5 when left out)."""
    kind = _lobby_kind(request.POST.get("game_type", settings.DEFAULT_GAME_KIND))
    data = request.POST.copy()
    data.setdefault("time_control", seek_default(kind))
    form = SeekForm(data, kind=kind)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("games:index")
    try:
        game, seek = quick_pair(request.user, options=kind.options_from(request.POST),
                                time_control=form.cleaned_data["time_control"],
                                game_type=kind.key)
    except GameError as refused:
        messages.error(request, refused.message)
        return redirect("games:index")
    if game is not None:
        return redirect("games:game", game_id=game.id)
    messages.info(request, "Your seek is in the lobby: the game starts when someone takes it.")
    return redirect("games:index")


def _challenge_or_404(challenge_id: str) -> Challenge:
    try:
        return (Challenge.objects.select_related("creator", "game", "invited")
                .prefetch_related("table_seats__user").get(id=challenge_id))
    except Challenge.DoesNotExist:
        raise Http404("no such challenge") from None


def _plays_in(challenge: Challenge, request: HttpRequest) -> bool:
    game = challenge.game
    return game is not None and services.seat_of(game, actor_of(request)) is not None


def _members_only(request: HttpRequest, challenge: Challenge) -> bool:
    """Must this visitor sign in first? (A rated table takes members only; guests may
    look at and sit at a casual one.)"""
    return not request.user.is_authenticated and challenge.rated


def _sits_at(challenge: Challenge, request: HttpRequest) -> TableSeat | None:
    actor = actor_of(request)
    if actor is None:
        return None
    for row in challenge.seat_rows:
        if (actor.kind == "member" and row.user_id == actor.user_id) or \
                (actor.kind == "guest" and row.guest_key == actor.guest_key):
            return row
    return None


def _seats_signature(seek: dict[str, Any]) -> str:
    """What the table page watches: it reloads when this changes."""
    return "|".join(f"{s['index']}:{s['name'] or ''}" for s in seek["seats"])


@never_cache
@require_GET
@styled_404
def challenge(request: HttpRequest, challenge_id: str) -> HttpResponse:
    """A table's page (the link of a challenge): who sits where; its host waits here with
    Start and the seats' Remove, whoever follows it may join (a guest, if it is casual)."""
    challenge = _challenge_or_404(challenge_id)
    if _members_only(request, challenge):
        return redirect_to_login(request.get_full_path())
    if challenge.game_id and _plays_in(challenge, request):
        return redirect("games:game", game_id=challenge.game_id)
    seek = seek_info(challenge)
    mine = _sits_at(challenge, request)
    is_creator = challenge.creator_id == request.user.pk
    invited = challenge.invited_id is not None
    kind = challenge.kind
    people = sum(1 for s in seek["seats"] if s["holder"] in ("member", "guest"))
    return render(request, "games/challenge.html", {
        "challenge": challenge,
        "seek": seek,
        "two_seats": challenge.seat_count == 2,
        "is_creator": is_creator,
        # a challenge to one member (docs/tables.md, "Challenges to a member"): theirs only
        "invited": challenge.invited if invited else None,
        "for_me": invited and challenge.invited_id == request.user.pk,
        "invited_title": titles.title_of(challenge.invited_id) if invited else None,
        "decline_reasons": list(services.DECLINE_REASONS.items()),
        "decline_words": services.DECLINE_REASONS.get(challenge.decline_reason, ""),
        "seated": mine is not None,
        "free_seats": [s for s in seek["seats"] if s["name"] is None],
        "may_start": is_creator and not challenge.rated and seek["free"] > 0
        and people >= MIN_PEOPLE,
        "start_choices": [(level, kind.bot_name(level)) for level in kind.bot_levels],
        "start_default": kind.bot_levels[0] if kind.bot_levels else "",
        "link": request.build_absolute_uri(),
        "status_url": reverse("games:challenge_json", kwargs={"challenge_id": challenge.id}),
        "lobby_ws_path": LOBBY_SOCKET_PATH,
        "seats_signature": _seats_signature(seek),
    })


@never_cache
@require_GET
def challenge_json(request: HttpRequest, challenge_id: str) -> JsonResponse:
    challenge = _challenge_or_404(challenge_id)
    if _members_only(request, challenge):
        return redirect_to_login(request.get_full_path())  # type: ignore[return-value]
    body: dict[str, Any] = {"id": challenge.id, "status": challenge.status, "game": None,
                            "url": None}
    if challenge.game_id and _plays_in(challenge, request):
        body["game"] = challenge.game_id
        body["url"] = reverse("games:game", kwargs={"game_id": challenge.game_id})
    seek = seek_info(challenge)
    body["seats"] = seek["seats"]
    body["signature"] = _seats_signature(seek)
    return JsonResponse(body)


@require_POST
def accept(request: HttpRequest, challenge_id: str) -> HttpResponse:
    """Join a table (`seat`: where, when the seats are placed); the last free seat starts
    it. A guest may join a casual table (a browser session is made for them)."""
    if not request.user.is_authenticated:
        found = Challenge.objects.filter(id=challenge_id).values_list("rated", flat=True)
        if not found or found[0]:
            return redirect_to_login(reverse("games:challenge",
                                             kwargs={"challenge_id": challenge_id}))
        actor = Actor.guest(ensure_session(request))
    else:
        actor = Actor.member(request.user)
    try:
        game = join_table(actor, challenge_id, seat=int_param(request.POST.get("seat")))
    except NotFound:
        raise Http404("no such challenge") from None
    except GameError as refused:
        messages.error(request, refused.message)
        return redirect("games:index")
    if game is None:
        return redirect("games:challenge", challenge_id=challenge_id)
    return redirect("games:game", game_id=game.id)


@require_POST
def leave(request: HttpRequest, challenge_id: str) -> HttpResponse:
    """Leave a table before it starts (the host leaving cancels it); with `seat`, the host
    removes whoever sits there."""
    seat = int_param(request.POST.get("seat"))
    try:
        services.leave_table(actor_of(request), challenge_id, seat=seat)
    except NotFound:
        raise Http404("no such challenge") from None
    except GameError as refused:
        messages.error(request, refused.message)
        return redirect("games:challenge", challenge_id=challenge_id)
    if seat is not None:
        return redirect("games:challenge", challenge_id=challenge_id)
    return redirect("games:index")


@login_required
@require_POST
def start(request: HttpRequest, challenge_id: str) -> HttpResponse:
    """The host starts a casual table now, with bots at `level` in the empty seats."""
    try:
        game = services.start_table(request.user, challenge_id,
                                    request.POST.get("level", ""))
    except NotFound:
        raise Http404("no such challenge") from None
    except GameError as refused:
        messages.error(request, refused.message)
        return redirect("games:challenge", challenge_id=challenge_id)
    return redirect("games:game", game_id=game.id)


@login_required
@require_POST
def decline(request: HttpRequest, challenge_id: str) -> HttpResponse:
    """The member a challenge is to says no (`reason`: one of lichess's, default
    "generic"); its maker is told."""
    try:
        services.decline_challenge(request.user, challenge_id,
                                   request.POST.get("reason") or "generic")
    except GameError as refused:
        messages.error(request, refused.message[:1].upper() + refused.message[1:] + ".")
        return redirect("games:challenge", challenge_id=challenge_id)
    messages.info(request, "You declined the challenge.")
    return redirect("games:index")


@login_required
@require_POST
def cancel(request: HttpRequest, challenge_id: str) -> HttpResponse:
    try:
        services.cancel_challenge(request.user, challenge_id)
    except GameError as refused:
        messages.error(request, refused.message)
    return redirect("games:index")

