"""Challenges and tables under `challenge:write`, lichess's challenge endpoints over the
site's tables (docs/tables.md): a challenge is a table by link that leaves one seat, the
member's it is to. Every rule is the games app's (`games.services`: `create_challenge`
with `invited`, `accept_challenge`, `join_table`, `decline_challenge`,
`cancel_challenge`), and the body is read as the site's table form reads its fields: the
game's options by its option fields, the time control among the ones the form offers for
that game (`games.tables.forms.SeekForm`), rated or casual, the challenger's seat, the
player count, bots for the other seats of a casual game.

- `POST /api/challenge/open`: a table by link (lichess's open challenge, the site's
  "challenge by link"): the maker sits at it and anyone with its link takes the other
  seats (`…/accept` for a two-seat table, `/api/table/{id}/join`, or the site's page); a
  Cargo Express table waits for its seat count. Registered before the next route, so a
  member called `open` is not challenged through the API (as on lichess).
- `POST /api/challenge/{username}`: a challenge to that member (a person or a BOT
  account); they hear of it on their event stream (`challenge`) and the site's
  notifications.
- `POST /api/challenge/{id}/accept`: the member it is to takes their seat (or anyone
  takes the last seat of a two-seat challenge by link or seek): the game starts, and every
  seated member's event stream says `gameStart`.
- `POST /api/challenge/{id}/decline` (`{"reason": …}`): the member it is to says no; its
  maker hears `challengeDeclined`.
- `POST /api/challenge/{id}/cancel`: its maker withdraws it; the member it was to hears
  `challengeCanceled`.
- `POST /api/table/{id}/join` (`{"seat": n}`): a seat at an open table (a Cargo Express
  table of 3 or 4 in the lobby, or one by link); the last free seat starts the game.

The games app's refusals pass on with their codes (`api.errors.from_game`): `404
not_found`, `409 gone` (no longer open), `400 own_challenge`, `403 not_a_player` (a
challenge to someone else, a rated table for a guest), `400 bad_request`."""

from __future__ import annotations

from typing import Any

import orjson
from django.http import HttpRequest
from ninja import Router

from games import services
from games.actors import Actor
from games.frames.protocol import GameError
from games.kinds import GameKind, KindError, default_kind, get_kind
from games.models import Challenge
from games.tables.forms import SeekForm, first_error, seek_default

from .. import examples
from ..auth import bearer
from ..errors import ApiError, Code, from_game
from ..operations import endpoint
from ..schemas import ChallengeIn, ChallengeOut, DeclineIn, DoneOut, JoinIn, TakenOut
from ..scopes import Scope
from .games import GAME_ID
from .shapes import absolute, member

router = Router(tags=["Challenges"])
CHALLENGE_REFUSALS = (Code.NOT_FOUND, Code.GONE, Code.NOT_A_PLAYER)


def _kind(key: str | None) -> GameKind:
    if key is None:
        return default_kind()
    try:
        kind = get_kind(key)
    except KindError:
        kind = None
    if kind is None or not kind.in_lobby:
        raise ApiError(Code.BAD_REQUEST, f"game: no game type {key!r} is offered for "
                       "challenges")
    return kind


def _options(kind: GameKind, options: dict[str, Any]) -> dict[str, Any]:
    """The options as the site's form posts them (each field's value as text), read by the
    kind's option fields; a name the form has no field for is refused."""
    names = {field.name for field in kind.option_fields}
    unknown = sorted(set(options) - names)
    if unknown:
        raise ApiError(Code.BAD_REQUEST, f"options: {kind.name} has no option "
                       f"{', '.join(map(repr, unknown))} (its options: "
                       f"{', '.join(sorted(names)) or 'none'})")
    return kind.options_from({name: str(value) for name, value in options.items()})


def _time_control(kind: GameKind, asked: str | None) -> str:
    """A time control the site's table form accepts for this game, as its code."""
    form = SeekForm({"time_control": seek_default(kind) if asked is None else asked},
                    kind=kind)
    if not form.is_valid():
        raise ApiError(Code.BAD_REQUEST, f"time_control: {first_error(form)}")
    return str(form.cleaned_data["time_control"])


def _body(request: HttpRequest, body: Any, schema: Any) -> Any:
    """An optional body: the schema's defaults when none was sent; a body that is JSON but
    not an object (django-ninja would read `[1, 2]` as the defaults) is refused."""
    try:
        sent = orjson.loads(request.body) if request.body.strip() else {}
    except orjson.JSONDecodeError:
        sent = None
    if not isinstance(sent, dict):
        raise ApiError(Code.BAD_REQUEST, "The body must be a JSON object (or nothing).")
    return body if body is not None else schema.model_validate({})


def _answer(request: HttpRequest, challenge: Challenge) -> dict[str, Any]:
    info = services.challenge_info(challenge)
    return {**info, "url": request.build_absolute_uri(info["url"])}


def _reloaded(challenge_id: str) -> Challenge:
    return (Challenge.objects.select_related("creator", "invited")
            .prefetch_related("table_seats__user").get(pk=challenge_id))


def _challenge_id(challenge_id: str) -> str:
    if not GAME_ID.fullmatch(challenge_id):
        raise ApiError(Code.NOT_FOUND, "No such challenge: a challenge id is 10 letters or "
                       "digits.")
    return challenge_id


def _taken(request: HttpRequest, challenge_id: str, game: Any) -> dict[str, Any]:
    return {"ok": True, "game_id": game.id if game is not None else None,
            "game_url": absolute(request, "games:game", game_id=game.id)
            if game is not None else None,
            "challenge": _answer(request, _reloaded(challenge_id))}


@router.post("/challenge/open", operation_id="challengeOpen", url_name="challenge_open",
             **endpoint(
    Scope.CHALLENGE_WRITE, "Open a table anyone with its link may join",
    "A table by link, as the site's table form makes one with \"by link\": the same "
    "fields as a challenge to a member (`game`, `options`, `time_control`, `rated`, "
    "`color`, `seats`, `bots` for a casual game); you sit at it, it is not in the lobby, "
    "and anyone with its URL takes a free seat (`/api/challenge/{id}/accept` for the last "
    "seat, `/api/table/{id}/join`, or the page). The last free seat starts the game: every "
    "seated member's event stream says `gameStart`; until then you hear `seek_changed`. "
    "Cancel it with `/api/challenge/{id}/cancel`.",
    ChallengeOut, examples.OPEN_CHALLENGE))
def open_table(request: HttpRequest, body: ChallengeIn | None = None) -> dict[str, Any]:
    return _made(request, _body(request, body, ChallengeIn), invited=None)


def _made(request: HttpRequest, body: ChallengeIn, invited: Any) -> dict[str, Any]:
    """A table by link made from the body as the site's form reads it: to `invited` (a
    member), or to anyone with its link (None)."""
    user = bearer(request).user
    kind = _kind(body.game)
    options = _options(kind, body.options)
    control = _time_control(kind, body.time_control)
    try:
        made = services.create_challenge(
            user, options=options, game_type=kind.key, color=body.color, public=False,
            time_control=control, seats=body.seats, rated=body.rated, bots=body.bots,
            invited=invited)
    except GameError as refused:
        raise from_game(refused) from None
    return _answer(request, _reloaded(made.id))


@router.post("/challenge/{username}", operation_id="challengeCreate",
             url_name="challenge_create", **endpoint(
    Scope.CHALLENGE_WRITE, "Challenge a member",
    "A challenge to the member `username` (a person or a BOT account), as the site's table "
    "form makes a table: `game` (a game type's key), its `options` by name, a "
    "`time_control` the form offers for that game, `rated`, your seat (`color`), the "
    "player count (`seats`) and, for a casual game of more than two, `bots` in the other "
    "seats: the challenge leaves one seat, the member's. It is not in the lobby; the "
    "member's event stream carries it (`challenge`) and the site notifies them. Rated "
    "games between a BOT account and a person are allowed.",
    ChallengeOut, examples.CHALLENGE, Code.NOT_FOUND, Code.OWN_CHALLENGE))
def create(request: HttpRequest, username: str, body: ChallengeIn | None = None
           ) -> dict[str, Any]:
    body = _body(request, body, ChallengeIn)
    return _made(request, body, invited=member(username))


@router.post("/challenge/{challenge_id}/accept", operation_id="challengeAccept",
             url_name="challenge_accept", **endpoint(
    Scope.CHALLENGE_WRITE, "Accept a challenge",
    "Take your seat at a challenge to you (or the last seat of a two-seat challenge by "
    "link or seek): the game starts, and every seated member's event stream says "
    "`gameStart`. A table that would still wait for others after you sit down is left as "
    "it was: join it (`/api/table/{id}/join`).",
    TakenOut, examples.TAKEN, *CHALLENGE_REFUSALS, Code.OWN_CHALLENGE))
def accept(request: HttpRequest, challenge_id: str) -> dict[str, Any]:
    user = bearer(request).user
    try:
        game = services.accept_challenge(user, _challenge_id(challenge_id))
    except GameError as refused:
        raise from_game(refused) from None
    return _taken(request, challenge_id, game)


@router.post("/challenge/{challenge_id}/decline", operation_id="challengeDecline",
             url_name="challenge_decline", **endpoint(
    Scope.CHALLENGE_WRITE, "Decline a challenge",
    "Say no to a challenge to you, with an optional `{\"reason\": …}` (lichess's keys; "
    "`generic` when left out). Its maker's event stream says `challengeDeclined` with the "
    "reason.",
    DoneOut, examples.DECLINED, *CHALLENGE_REFUSALS))
def decline(request: HttpRequest, challenge_id: str, body: DeclineIn | None = None
            ) -> dict[str, Any]:
    user = bearer(request).user
    reason = _body(request, body, DeclineIn).reason
    try:
        done = services.decline_challenge(user, _challenge_id(challenge_id), reason)
    except GameError as refused:
        raise from_game(refused) from None
    return {"ok": True, "challenge": _answer(request, _reloaded(done.id))}


@router.post("/challenge/{challenge_id}/cancel", operation_id="challengeCancel",
             url_name="challenge_cancel", **endpoint(
    Scope.CHALLENGE_WRITE, "Cancel your challenge",
    "Withdraw a challenge or table you made while it is open; the member it was to hears "
    "`challengeCanceled`, whoever sat at it `seek_removed`.",
    DoneOut, examples.CANCELED, *CHALLENGE_REFUSALS))
def cancel(request: HttpRequest, challenge_id: str) -> dict[str, Any]:
    user = bearer(request).user
    try:
        services.cancel_challenge(user, _challenge_id(challenge_id))
    except GameError as refused:
        raise from_game(refused) from None
    return {"ok": True, "challenge": _answer(request, _reloaded(challenge_id))}


@router.post("/table/{challenge_id}/join", operation_id="tableJoin",
             url_name="table_join", **endpoint(
    Scope.CHALLENGE_WRITE, "Sit down at an open table",
    "A seat at an open table (a seek in the lobby, or a table by link: a Cargo Express "
    "table of 3 or 4 fills up over time), at `{\"seat\": n}` when its seats are as "
    "chosen, else the first free one. The last free seat starts the game (`game_id`; "
    "every seated member's event stream says `gameStart`); until then the table waits and "
    "its seated members hear `seek_changed`.",
    TakenOut, examples.TAKEN, *CHALLENGE_REFUSALS, Code.OWN_CHALLENGE))
def join(request: HttpRequest, challenge_id: str, body: JoinIn | None = None
         ) -> dict[str, Any]:
    actor = Actor.member(bearer(request).user)
    seat = _body(request, body, JoinIn).seat
    try:
        game = services.join_table(actor, _challenge_id(challenge_id), seat=seat)
    except GameError as refused:
        raise from_game(refused) from None
    return _taken(request, challenge_id, game)

