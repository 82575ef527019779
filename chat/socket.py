"""The game socket's chat part: `ChatSocket`, a part of the socket the top layer routes
(cargosite/routing.py composes it with `games.sockets.game.GameConsumer`), which handles
the `chat*` frames a page sends and the chat's channel-layer messages. The game socket
calls it through the platform's hooks (`games.sockets.runtime.SocketParts`) at three
points only (where it loads the game, where it joins its groups, and for a frame type the
game does not handle); nothing here reads or sends any of the game's state, and nothing of
the chat goes through the game's frames; the platform does not import this module.

Frames (docs/live-protocol.md, "Table chat"):
- `{"type": "chat", "text": str}`: say it in the viewer's room → a `chat` frame to the
  room's readers (the sender's acknowledgement), or `chat_error`;
- `{"type": "chat_sync", "after": {"players": int, "spectators": int}}` → `chat_state`;
- `{"type": "chat_mute", "name": str, "mute": bool}` → `chat_muted`;
- `{"type": "chat_report", "room": str, "seq": int}` → `chat_reported`.
"""

from __future__ import annotations

from typing import Any

from games.actors import Actor
from games.models import Game
from games.sockets.runtime import CLOSE_SIGNED_OUT, SocketParts, db, service

from . import services
from .rooms import ROOMS, group_of, is_player, member_group
from .services import ChatError, Reader

CHAT_FRAMES = ("chat", "chat_sync", "chat_mute", "chat_report")


def _after(value: Any) -> dict[str, int] | None:
    """A `chat_sync`'s `after`: each room's last number the page has (missing: 0)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        return None
    after = {}
    for room, seq in value.items():
        if room not in ROOMS or not isinstance(seq, int) or isinstance(seq, bool) \
                or not 0 <= seq < 2**31:
            return None
        after[room] = seq
    return after


class ChatSocket(SocketParts):
    """The chat's part of a game socket: its reader, its group, its muted members."""

    game_id = ""
    actor: Actor | None = None
    chat_reader = Reader(None, False)
    chat_muted: frozenset[int] = frozenset()

    def parts_open(self, game: Game) -> None:
        """On the database thread, with the game the socket loaded: who reads."""
        super().parts_open(game)
        self.chat_reader = Reader(self.actor, is_player(game, self.actor))
        self.chat_muted = services.muted_ids(self.chat_reader.member_id)

    async def parts_join(self) -> None:
        await super().parts_join()
        await self.join(group_of(self.game_id, self.chat_reader.player))
        if self.chat_reader.member_id is not None:
            await self.join(member_group(self.chat_reader.member_id))

    async def parts_receive(self, kind: str, content: dict[str, Any]) -> bool:
        if kind in CHAT_FRAMES:
            await self.chat_receive(kind, content)
            return True
        return await super().parts_receive(kind, content)

    async def chat_receive(self, kind: str, content: dict[str, Any]) -> None:
        if kind != "chat_sync" and self.chat_reader.member_id is not None \
                and (self.revoked or not await self.signed_in()):
            # A member's writes, as a turn: only while the socket's session still holds.
            self.revoked = True
            await self.send_json(ChatError("sign_in", "You signed out: sign in again to "
                                                      "chat.").frame())
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        try:
            if kind == "chat":
                await service(services.post)(self.game_id, self.chat_reader,
                                             content.get("text"))
            elif kind == "chat_sync":
                after = _after(content.get("after"))
                if after is None:
                    raise ChatError("bad_frame", 'a chat sync is {"type": "chat_sync", '
                                                 '"after": {"players": int, "spectators": int}}')
                await self.send_json(await db(services.chat_state)(
                    self.game_id, self.chat_reader, after))
            elif kind == "chat_mute":
                answer = await service(services.mute)(self.chat_reader, content.get("name"),
                                                      content.get("mute") is not False)
                await self.send_json(answer)
            elif kind == "chat_report":
                await self.send_json(await db(services.report)(
                    self.game_id, self.chat_reader, content.get("room"), content.get("seq")))
        except ChatError as refused:
            await self.send_json(refused.frame())

    async def chat_frame(self, message: dict[str, Any]) -> None:
        """A chat frame for this socket's group: passed on, unless its author is muted."""
        if message.get("author") in self.chat_muted:
            return
        await self.send(text_data=message["text"])

    async def chat_mutes(self, message: dict[str, Any]) -> None:
        """This member muted or unmuted someone (on any of their sockets)."""
        self.chat_muted = frozenset(message.get("ids") or ())
