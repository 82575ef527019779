"""Board and bot play: a token's member acts for the seats they hold, down the games app's
one apply path (`services.apply_turn`, the same call a seat's socket makes: the fast path's
warm copy first, else the locked path; `services.resign` likewise). lichess's two doors:
`/api/board/…` needs `board:play` and a person's account (a person with a board or a
program at their side), `/api/bot/…` `bot:play` and a BOT account (a program playing its
own account's seats; api.bots checks the account before anything else, as lichess keeps
the two apart). A decision carries its number (`ply`: the game's ply, or
the seat's own count for a kind whose seats decide at once) and its token, as the socket's
`turn` frame; the answer is the frame the seat's socket gets, and the game's streams carry
the decision as its sockets do. A Cargo Express seat may queue its next turn ahead
(`services.queue_turn`, the socket's `queue`); a seat aborts a game nobody has started
(`services.abort_game`, the socket's `abort`) and claims one whose opponents left
(`services.claim_game` with two seats, `services.claim_seat` with more: the socket's
`claim`), the games app deciding each (games.timing.abandonment). Every refusal (no such
game, a body that is not the shape, no seat, not the seat's turn, an illegal decision, a
stale number, a claim too early) is a JSON error with its status, and nothing is changed.
For Cargo Express the member sees only their seat's view (the game stream) and commits
plans like anyone."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from games import access, services
from games.actors import Actor
from games.frames.protocol import GameError

from .. import bots, examples
from ..auth import bearer
from ..errors import ApiError, Code, from_game
from ..operations import endpoint
from ..schemas import ClaimIn, DecisionIn, PlayOut, QueueIn, ResignIn
from ..scopes import Scope
from .games import kind_to_decide, load

PLAY_REFUSALS = (Code.NOT_FOUND, Code.ILLEGAL, Code.NOT_A_PLAYER, Code.STALE_PLY)
# Each door, its path, its title and the accounts it takes (api.bots: lichess keeps them
# apart, a BOT account at the bot door only, a person at the board door only).
DOORS = {Scope.BOARD_PLAY: ("board", "Board", ("person", bots.people_only)),
         Scope.BOT_PLAY: ("bot", "Bot", ("bot", bots.bots_only))}


def decide(request: HttpRequest, game_id: str, decision: DecisionIn) -> dict[str, Any]:
    kind = kind_to_decide(game_id)  # the open checks run; the turn makes a due flag fall
    if len(decision.token) > kind.max_token_length:
        raise ApiError(Code.BAD_REQUEST, f"token: at most {kind.max_token_length} "
                       "characters in this game")
    actor = Actor.member(bearer(request).user)
    try:
        result = services.apply_turn(game_id, actor=actor, ply=decision.ply,
                                     token=decision.token)
    except GameError as refused:
        raise from_game(refused) from None
    return {"ok": True, "frame": result.frame}


def resign(request: HttpRequest, game_id: str, body: ResignIn | None = None
           ) -> dict[str, Any]:
    load(game_id)
    actor = Actor.member(bearer(request).user)
    try:
        access.run_open_checks_for(game_id)
        frame = services.resign(game_id, actor=actor, ply=body.ply if body else None)
    except GameError as refused:
        raise from_game(refused) from None
    return {"ok": True, "frame": frame}


def queue(request: HttpRequest, game_id: str, body: QueueIn) -> dict[str, Any]:
    game = load(game_id)
    if len(body.key) > services.MAX_QUEUE_KEY or len(body.steps) > services.MAX_QUEUE_STEPS \
            or not all(0 < len(step) <= game.kind.max_token_length for step in body.steps):
        raise ApiError(Code.BAD_REQUEST, f"steps: at most {services.MAX_QUEUE_STEPS}, each "
                       f"1 to {game.kind.max_token_length} characters in this game")
    actor = Actor.member(bearer(request).user)
    try:
        frame = services.queue_turn(game_id, actor=actor, key=body.key, steps=body.steps)
    except GameError as refused:
        raise from_game(refused) from None
    return {"ok": True, "frame": frame}


def abort(request: HttpRequest, game_id: str) -> dict[str, Any]:
    load(game_id)
    actor = Actor.member(bearer(request).user)
    try:
        frame = services.abort_game(game_id, actor=actor)
    except GameError as refused:
        raise from_game(refused) from None
    return {"ok": True, "frame": frame}


def claim(request: HttpRequest, game_id: str, body: ClaimIn) -> dict[str, Any]:
    """As the socket reads a claim: a seat alone with more than two seats, else the
    result, `win` or `draw`."""
    load(game_id)
    actor = Actor.member(bearer(request).user)
    if body.result is None and body.seat is None or \
            body.result is not None and body.result not in ("win", "draw"):
        raise ApiError(Code.BAD_REQUEST, 'A claim is {"result": "win" | "draw"} or, with '
                       'more than two seats, {"seat": n}.')
    try:
        if body.result is None and body.seat is not None:
            frame = services.claim_seat(game_id, actor=actor, seat=body.seat)
        else:
            frame = services.claim_game(game_id, actor=actor, result=str(body.result))
    except GameError as refused:
        raise from_game(refused) from None
    return {"ok": True, "frame": frame}


def routers() -> list[Router]:
    """One router per door, the same two operations under each scope."""
    made = []
    for scope, (path, title, account) in DOORS.items():
        router = Router(tags=[f"{title} play"])
        router.add_api_operation(
            f"/{path}/game/{{game_id}}/decision", ["POST"], decide,
            operation_id=f"{path}Decision", url_name=f"{path}_decision", **endpoint(
                scope, "Make a decision for your seat",
                "The decision of the seat the token's member holds, as the game page sends "
                "it: `{\"ply\": n, \"token\": \"…\"}` (the game's notation; `ply` is the "
                "state's `ply`, or for Cargo Express the seat's `seqs` entry). A resent "
                "decision (same number, same token) gets its frame again; a stale number "
                "gets `stale_ply` with the seat's state. For Cargo Express a planning "
                "decision commits the seat's plan (it may be replaced until planning "
                "closes), a turn is sent a step at a time, as on the page.",
                PlayOut, examples.DECISION, *PLAY_REFUSALS, Code.NOT_YOUR_TURN,
                Code.GAME_OVER, account=account))
        router.add_api_operation(
            f"/{path}/game/{{game_id}}/resign", ["POST"], resign,
            operation_id=f"{path}Resign", url_name=f"{path}_resign", **endpoint(
                scope, "Resign your seat",
                "The seat the token's member holds resigns; with more than two seats the "
                "game goes on without it. The body is optional: `{\"ply\": n}`, the ply "
                "the client knew.",
                PlayOut, examples.RESIGNED, Code.NOT_FOUND, Code.NOT_A_PLAYER,
                Code.GAME_OVER, account=account))
        router.add_api_operation(
            f"/{path}/game/{{game_id}}/queue", ["POST"], queue,
            operation_id=f"{path}Queue", url_name=f"{path}_queue", **endpoint(
                scope, "Queue a pre-turn (Cargo Express)",
                "A waiting seat's next turn queued ahead, as the page queues it: "
                "`{\"key\": \"…\", \"steps\": [\"…\"]}`, the key and the steps from "
                "the seat's state (`legal.next`: `key`, `turns` joined by `.`); it "
                "replaces what was queued, no steps cancel it. "
                "Played at the reveal if still legal, else dropped and the seat decides by "
                "hand; told to that seat alone (its stream's `queued` frames).",
                PlayOut, examples.QUEUED, Code.NOT_FOUND, Code.NOT_A_PLAYER, Code.ILLEGAL,
                Code.STALE_PLY, Code.GAME_OVER, account=account))
        router.add_api_operation(
            f"/{path}/game/{{game_id}}/abort", ["POST"], abort,
            operation_id=f"{path}Abort", url_name=f"{path}_abort", **endpoint(
                scope, "Abort a game nobody has started",
                "Until every seat has made its first decision, a seat's holder aborts an "
                "online game or a game against the site's bots (never the Daily "
                "Challenge's): it ends with no result and counts nowhere. Refused once "
                "every seat has moved (resign instead), with the seat's state. No body.",
                PlayOut, examples.ABORTED, Code.NOT_FOUND, Code.NOT_A_PLAYER,
                Code.GAME_OVER, account=account))
        router.add_api_operation(
            f"/{path}/game/{{game_id}}/claim", ["POST"], claim,
            operation_id=f"{path}Claim", url_name=f"{path}_claim", **endpoint(
                scope, "Claim a game your opponents left",
                "In a live online game every seat has moved in, once an opponent has been "
                "away for 60 s (no socket or stream open on their seat, no decision): with "
                "two seats `{\"result\": \"win\"}` (their seat resigns) or `{\"result\": "
                "\"draw\"}`; with more, `{\"seat\": n}` hands that seat to its stand-in "
                "and the game goes on. An open game stream counts as being at the board. "
                "Refused before the 60 s (the message says how long to wait) with the "
                "seat's state.",
                PlayOut, examples.CLAIMED, Code.NOT_FOUND, Code.NOT_A_PLAYER,
                Code.GAME_OVER, account=account))
        made.append(router)
    return made
