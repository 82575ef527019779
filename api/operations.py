"""What every endpoint declares to django-ninja besides its function: the bearer scheme
with its scope (`TokenAuth`), the responses with their schemas (the answer and each
refusal it may give), and an example answer, which the OpenAPI description carries and the
reference page shows. The scope is also written as `x-scope` on the operation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .auth import TokenAuth
from .errors import Code
from .schemas import ErrorOut
from .scopes import Scope

# Every endpoint may answer these: a token missing or refused (401), a scope missing (403),
# a parameter wrong (400), too many requests (429), the database down (503).
ALWAYS = (Code.NO_TOKEN, Code.MISSING_SCOPE, Code.BAD_REQUEST, Code.RATE_LIMITED,
          Code.UNAVAILABLE)
REASONS = {400: "A parameter or the body is missing, malformed, of the wrong type or out of "
                "range (`bad_request`), the engine refused the decision (`illegal`), or the "
                "challenge is the asker's own (`own_challenge`).",
           401: "No token, or one malformed, unknown, revoked or expired (`no_token`, "
                "`malformed_token`, `unknown_token`, `revoked_token`, `expired_token`).",
           403: "The token lacks the endpoint's scope (`missing_scope`), its account is "
                "not the door's (`not_a_bot`: the bot endpoints take BOT accounts only; "
                "`bot_account`: the board endpoints take people only), the game is not "
                "viewable by its member now (`hidden`), or its member holds no seat of the "
                "game, or no place at the challenge, that may do this (`not_a_player`).",
           404: "No such member, game, tournament or challenge (`not_found`).",
           409: "The game moved on: the decision's number is stale (`stale_ply`, with the "
                "seat's `state`), the seat is not to act (`not_your_turn`), or the game is "
                "over (`game_over`); the challenge or table is no longer open (`gone`); the "
                "account may not become a BOT account (`already_bot`, `has_played`, "
                "`seated`, `in_tournament`). Nothing was done.",
           429: "Too many requests from this token or address (`rate_limited`), or, for a "
                "stream, too many streams open at once for this token or member "
                "(`too_many_streams`); `Retry-After` says in how many seconds to try again.",
           503: "The database did not answer (`unavailable`); nothing was done."}


ACCOUNTS = {"bot": "Only a BOT account's token (`not_a_bot` otherwise).",
            "person": "Only a person's token: a BOT account plays through `/api/bot/…` "
                      "(`bot_account` otherwise)."}


def endpoint(scope: Scope, summary: str, description: str, answer: Any, example: Any,
             *also: Code, media: str = "application/json",
             account: tuple[str, Callable[[Any], None]] | None = None) -> dict[str, Any]:
    """The decorator's keyword arguments for an endpoint needing `scope` that answers
    `answer` (a schema; None for a stream documented by `media`), its example, and the
    refusals `also` beside `ALWAYS`; `account`: the accounts it takes ("bot" or "person",
    written as `x-account`) with the check `TokenAuth` runs (`api.bots`)."""
    statuses = sorted({code.status for code in (*ALWAYS, *also)})
    response: dict[int, Any] = {status: ErrorOut for status in statuses}
    if answer is not None:
        response[200] = answer
    extra: dict[str, Any] = {
        "x-scope": scope.value,
        "responses": {status: {"description": REASONS[status]} for status in statuses},
    }
    needs = f"Needs a token with the `{scope.value}` scope."
    if account is not None:
        extra["x-account"] = account[0]
        needs += " " + ACCOUNTS[account[0]]
    if answer is not None:
        extra["responses"][200] = {"content": {media: {"example": example}}}
    else:
        extra["responses"][200] = {"description": "OK", "content": {media: {
            "example": example}}}
    return {"auth": TokenAuth(scope, account[1] if account else None), "response": response,
            "summary": summary, "description": f"{description}\n\n{needs}",
            "openapi_extra": extra}
