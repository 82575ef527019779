"""One game, for the asking viewer: its facts, its record and its live-protocol state,
each built for that viewer by the games app's own per-viewer builders (never a full state
filtered afterwards): a finished game whole (`EVERYTHING`: every hand and plan of a Cargo
Express table is public once it is over), a running one as the asker's seat sees it, or as
a spectator sees it when they hold none. A game its mode hides from this member now (the
Daily Challenge of today, `games.access`) is refused, telling nothing of it."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest
from ninja import Router

from games import access, services
from games.actors import Actor
from games.kinds import GameKind, get_kind
from games.models import Game

from .. import examples
from ..auth import bearer
from ..errors import ApiError, Code
from ..operations import endpoint
from ..schemas import GameOut
from ..scopes import Scope
from .shapes import game_facts

router = Router(tags=["Games"])
GAME_ID = re.compile(r"[0-9A-Za-z]{10}")


def load(game_id: str) -> Game:
    """The game as its page opens it: the open checks run and a due flag falls first."""
    if not GAME_ID.fullmatch(game_id):
        raise ApiError(Code.NOT_FOUND, "No such game: a game id is 10 letters or digits.")
    try:
        game = services.get_game(game_id)
        if access.run_open_checks(game) or services.flag_if_due(game):
            game = services.get_game(game_id)
    except services.NotFound:
        raise ApiError(Code.NOT_FOUND, f"No game {game_id}.") from None
    return game


def kind_to_decide(game_id: str) -> GameKind:
    """The kind of a game a decision is sent to, with its mode's open checks run: one query
    where `load` takes three (the game and its seats, then the mode again for the checks);
    the turn itself reads the game (its warm copy or the locked row) and makes a due flag
    fall (`services.apply_turn`: `flag_when_fallen`). The same refusals as `load`."""
    if not GAME_ID.fullmatch(game_id):
        raise ApiError(Code.NOT_FOUND, "No such game: a game id is 10 letters or digits.")
    found = Game.objects.filter(pk=game_id).values_list("game_type", "mode").first()
    if found is None:
        raise ApiError(Code.NOT_FOUND, f"No game {game_id}.")
    game_type, mode = found
    if access.has_open_checks(mode):
        access.run_open_checks(services.get_game(game_id))
    return get_kind(game_type)


@router.get("/game/{game_id}", operation_id="getGame", **endpoint(
    Scope.READ, "One game, as its asker may see it",
    "The game's facts, its record (its notation: the public form while it goes on, all "
    "of it once over) and its state (the live protocol's) for the asker: a finished game "
    "whole; a running one as the asker's seat sees it, or a spectator if they hold none. "
    "A Daily Challenge game of today is its player's only until the day ends.",
    GameOut, examples.GAME, Code.NOT_FOUND, Code.HIDDEN))
def game(request: HttpRequest, game_id: str) -> dict[str, Any]:
    found = load(game_id)
    actor = Actor.member(bearer(request).user)
    reason = access.hidden_reason(found, actor)
    if reason:
        raise ApiError(Code.HIDDEN, reason)
    seat = services.seat_of(found, actor)
    # The protocol's own builder shows everything of a game the site has ended (rule 76 of
    # Cargo Express) and otherwise this seat's view, or a spectator's (seat None).
    said = "everything" if found.is_over else "seat" if seat is not None else "spectator"
    state = services.with_queue(services.state_of(found, viewer=seat), found, seat)
    _, record = services.record_text(found.id, site=request.build_absolute_uri("/")
                                     .rstrip("/"))
    return {**game_facts(request, found), "viewer": said, "seat": seat, "record": record,
            "state": state}
