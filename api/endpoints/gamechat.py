"""A game's chat through the play doors (lichess's `POST` and `GET /api/board/game/{id}/chat`,
and the bot door's): the chat app's own services, as the game socket's chat part calls
them (chat.socket), never a rule of its own here.

- `POST …/game/{id}/chat` (`{"text": …}`): `chat.services.post` for the token's member,
  in the players' room: the same cleaning, length limit, silences and rate limit (5
  messages in 10 s across every game, `rate_limited` with `Retry-After`) as the page's
  chat. The doors play a member's own seats, so only a player of the game (one who holds
  or held a seat, chat.rooms.is_player) writes here (`not_a_player` otherwise); a BOT
  account chats through the bot door. Every reader of the room hears it after commit,
  as a page's `chat` frame (sockets and game streams alike).
- `GET …/game/{id}/chat`: `chat.services.chat_state` for the token's member as the
  page's socket reads it: the rooms they may read now (a player the players' room until
  the game ends, both after; anyone else both), each with its last messages (the hidden
  ones and the muted members' left out). `players_after` and `spectators_after`: the
  numbers already held, as the socket's `chat_sync`.

Refusals are the chat's codes passed on (`api.errors.from_chat`) or the games app's
(no such game, hidden), and change nothing."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Query, Router, Schema
from pydantic import Field

from chat import frames, services
from chat.rooms import is_player, writable
from chat.services import ChatError, Reader
from games.actors import Actor

from .. import examples
from ..auth import bearer
from ..errors import ApiError, Code, from_chat
from ..operations import endpoint
from ..schemas import ChatIn, ChatPostOut, ChatStateOut
from .games import load
from .play import DOORS

CHAT_REFUSALS = (Code.NOT_FOUND, Code.HIDDEN, Code.NOT_A_PLAYER)


class ChatAfter(Schema):
    players_after: int = Field(0, ge=0, lt=2**31, description=(
        "The players' room's last number the client holds (0: none)."))
    spectators_after: int = Field(0, ge=0, lt=2**31, description=(
        "The spectators' room's last number the client holds (0: none)."))


def _reader(request: HttpRequest, game_id: str) -> Reader:
    game = load(game_id)
    actor = Actor.member(bearer(request).user)
    return Reader(actor, is_player(game, actor))


def say(request: HttpRequest, game_id: str, body: ChatIn) -> dict[str, Any]:
    reader = _reader(request, game_id)
    if not reader.player:
        raise ApiError(Code.NOT_A_PLAYER, "Only the game's players chat through the play "
                       "endpoints; spectators chat on the game's page.")
    try:
        message = services.post(game_id, reader, body.text)
    except ChatError as refused:
        raise from_chat(refused) from None
    line = frames.said(message.seq, message.author.get_username(), message.text,
                       message.created)
    room = writable(reader.actor, reader.player)  # the room `post` wrote in
    assert room is not None
    return {"ok": True, "frame": frames.message_frame(room, line)}


def read(request: HttpRequest, game_id: str, after: Query[ChatAfter]) -> dict[str, Any]:
    reader = _reader(request, game_id)
    try:
        return services.chat_state(game_id, reader, {"players": after.players_after,
                                                     "spectators": after.spectators_after})
    except ChatError as refused:
        raise from_chat(refused) from None


def routers() -> list[Router]:
    """The chat's two operations under each door."""
    made = []
    for scope, (path, title, account) in DOORS.items():
        router = Router(tags=[f"{title} play"])
        router.add_api_operation(
            f"/{path}/game/{{game_id}}/chat", ["POST"], say,
            operation_id=f"{path}ChatPost", url_name=f"{path}_chat_post", **endpoint(
                scope, "Write in the game's chat",
                "A message in the players' room of a game the token's member plays (or "
                "played): `{\"text\": \"…\"}`, cleaned and limited as on the game's page "
                "(`empty`, `too_long`), at most 5 messages in 10 s across every game "
                "(`rate_limited`), refused while a moderator has silenced the member "
                "(`silenced`). Every reader of the room hears it (`chat` frames on their "
                "sockets and game streams); the answer is that frame.",
                ChatPostOut, examples.CHAT_SAID, *CHAT_REFUSALS, Code.EMPTY,
                Code.TOO_LONG, Code.SILENCED, account=account))
        router.add_api_operation(
            f"/{path}/game/{{game_id}}/chat", ["GET"], read,
            operation_id=f"{path}ChatRead", url_name=f"{path}_chat_read", **endpoint(
                scope, "Read the game's chat",
                "The rooms the token's member may read now, as the game page's chat shows "
                "them: a player reads the players' room until the game is over and both "
                "after it; anyone else both. Each room's last 100 messages after the "
                "number given (`players_after`, `spectators_after`), hidden ones and "
                "muted members' left out.",
                ChatStateOut, examples.CHAT_STATE, Code.NOT_FOUND, Code.HIDDEN,
                account=account))
        made.append(router)
    return made
