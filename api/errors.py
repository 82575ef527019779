"""The API's refusals: one JSON shape, `{"code": ..., "error": ...}` (lichess's `error`,
the site's `code`), with the HTTP status the code carries. A refusal changes nothing."""

from __future__ import annotations

from enum import Enum
from typing import Any

from django.http import JsonResponse

from chat.services import RATE_SECONDS, ChatError
from games.frames.protocol import GameError


class Code(Enum):
    """Each error code with its HTTP status."""

    NO_TOKEN = ("no_token", 401)  # no `Authorization: Bearer …` header
    MALFORMED_TOKEN = ("malformed_token", 401)  # a header or token of the wrong shape
    UNKNOWN_TOKEN = ("unknown_token", 401)  # well formed, but no such token
    REVOKED_TOKEN = ("revoked_token", 401)
    EXPIRED_TOKEN = ("expired_token", 401)
    MISSING_SCOPE = ("missing_scope", 403)  # the token lacks the endpoint's scope
    HIDDEN = ("hidden", 403)  # not viewable by this viewer now (games.access)
    NOT_FOUND = ("not_found", 404)  # no such member, game, tournament or puzzle
    BAD_REQUEST = ("bad_request", 400)  # a parameter of the wrong type or out of range
    RATE_LIMITED = ("rate_limited", 429)  # with `Retry-After`
    UNAVAILABLE = ("unavailable", 503)  # the database did not answer
    # Play (board and bot): the games app's own refusals (games.frames.protocol.Code),
    # passed on with their code and status.
    ILLEGAL = ("illegal", 400)  # the engine refused the decision
    NOT_A_PLAYER = ("not_a_player", 403)  # the token's member holds no seat that may act
    NOT_YOUR_TURN = ("not_your_turn", 409)
    STALE_PLY = ("stale_ply", 409)  # with the seat's current `state`
    GAME_OVER = ("game_over", 409)
    GONE = ("gone", 409)  # the challenge or table is no longer open
    OWN_CHALLENGE = ("own_challenge", 400)  # accepting or making a challenge to oneself
    # BOT accounts (api.bots): each door takes its own accounts; the upgrade's refusals.
    NOT_A_BOT = ("not_a_bot", 403)  # the bot door (`/api/bot/…`) for a person's account
    BOT_ACCOUNT = ("bot_account", 403)  # the board door (`/api/board/…`) for a BOT account
    ALREADY_BOT = ("already_bot", 409)  # upgrading a BOT account
    HAS_PLAYED = ("has_played", 409)  # upgrading an account that holds a seat of a game
    SEATED = ("seated", 409)  # upgrading an account seated at an open table
    IN_TOURNAMENT = ("in_tournament", 409)  # upgrading an account entered in a tournament
    # The live streams (api.slots): too many open at once for this token or member.
    TOO_MANY_STREAMS = ("too_many_streams", 429)  # with `Retry-After`
    # A game's chat (chat.services, passed on by `from_chat`): the chat's own codes.
    EMPTY = ("empty", 400)  # nothing left to say once the text is cleaned
    TOO_LONG = ("too_long", 400)  # over the chat's length limit once cleaned
    SILENCED = ("silenced", 403)  # a moderator silenced the member for a while

    def __init__(self, code: str, status: int) -> None:
        self.code = code
        self.status = status


class ApiError(Exception):
    """A refused API request; nothing changed."""

    def __init__(self, code: Code, message: str, retry_after: int | None = None,
                 extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.error = code
        self.message = message
        self.retry_after = retry_after
        self.extra = extra or {}  # more the refusal says (a stale decision's state)

    @property
    def code(self) -> str:
        return self.error.code

    @property
    def status(self) -> int:
        return self.error.status

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "error": self.message, **self.extra}

    def response(self) -> JsonResponse:
        answer = JsonResponse(self.body(), status=self.status)
        if self.retry_after is not None:
            answer["Retry-After"] = str(self.retry_after)
        if self.status == 401:  # RFC 6750, section 3
            answer["WWW-Authenticate"] = 'Bearer realm="api"'
        answer["Cache-Control"] = "no-store"
        return answer


def from_game(refused: GameError) -> ApiError:
    """A games app's refusal (a decision, a resignation) as the API's: its code when the
    API names it, with the ply it names and, after a stale decision, the seat's state."""
    by_code = {code.code: code for code in Code}
    code = by_code.get(refused.code, Code.BAD_REQUEST)
    extra: dict[str, Any] = {}
    if refused.ply is not None:
        extra["ply"] = refused.ply
    if refused.state is not None:
        extra["state"] = refused.state
    retry = 5 if code is Code.UNAVAILABLE else None
    return ApiError(code, refused.message, retry_after=retry, extra=extra)


def from_chat(refused: ChatError) -> ApiError:
    """The chat's refusal (chat.services: posting, reading) as the API's, by its code:
    the chat's own rate limit is `rate_limited` with `Retry-After` its window's span."""
    by_code = {code.code: code for code in Code}
    code = by_code.get(refused.code, Code.BAD_REQUEST)
    retry = RATE_SECONDS if code is Code.RATE_LIMITED else None
    return ApiError(code, refused.message, retry_after=retry)
