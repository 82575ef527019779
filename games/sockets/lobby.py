"""The lobby socket, `/ws/lobby/`: the open seeks and tables, live (docs/tables.md).

Thin: it sends `seeks` on connect (and again when the channel layer answers after an
outage); the lobby's services (games.tables.lobby) broadcast `seek_added` / `seek_removed` to the
lobby's group and `seek_accepted` to a member's own group. The client only pings.
"""

from __future__ import annotations

from typing import Any

from games import services
from games.frames.broadcast import LOBBY_GROUP, user_group
from games.frames.protocol import Code
from games.sockets.runtime import FrameConsumer, db


class LobbyConsumer(FrameConsumer):
    """Open seeks, live: `seeks` on connect, then `seek_added` / `seek_removed`, and
    `seek_accepted` (with the game's URL) to the creator of a seek or challenge."""

    socket_kind = "lobby"

    async def connect(self) -> None:
        user = self.scope.get("user")
        await self.join(LOBBY_GROUP)
        if user is not None and user.is_authenticated:
            await self.join(user_group(user.pk))
        await self.join_member_group()
        await self.accept()
        seeks = await db(services.open_seeks)()
        await self.send_json({"type": "seeks", "seeks": seeks})

    async def disconnect(self, code: int) -> None:
        await self.leave_groups()

    async def rejoined(self) -> None:
        seeks = await db(services.open_seeks)()
        await self.send_json({"type": "seeks", "seeks": seeks})

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        if content["type"] == "ping":
            await self.mark_seen()
            await self.send_json({"type": "pong"})
        else:
            await self.send_error(Code.BAD_FRAME, "the lobby socket only answers ping")
