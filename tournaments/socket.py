"""The tournament sockets (docs/tournaments.md, "Live"): `/ws/tournament/<id>/`, a
tournament page's sections, live; `/ws/tournaments/`, the list's rows (below). Thin, on
the platform's socket runtime (`games.sockets.runtime.FrameConsumer`: budgets, frame
parsing, close codes, a channel layer that may be down, the session check); what they
send is `tournaments.live`'s.

On connect it joins the tournament's group (`tournament.<id>`), a member's own group on
it (`tournament.<id>.user.<member id>`: their "Play now") and the member's sockets group
(the session check, notifications), accepts, and sends every section as this viewer sees
it: a page that reconnects after missing frames is current again at once. Anyone who may
open the page may open its socket (a private tournament's page is public too: its
password is asked only to join); anonymous sockets count against the address's cap as a
game's spectators do.

Client frames: `ping` (→ `pong`), `sync` (→ every section again). Anything else is a
`bad_frame` error. Refusals: 4404 no such tournament, 4430 too many anonymous sockets
from this address, 1013 the database not answering (accepted, then closed).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from django.conf import settings

from games.frames.protocol import DATABASE_DOWN, Code
from games.sockets import limits
from games.sockets.runtime import (
    CLOSE_NOT_FOUND,
    CLOSE_TOO_MANY,
    CLOSE_TRY_AGAIN,
    FrameConsumer,
    db,
    log_database_down,
)
from tournaments import live

SYNC_COST = 4  # a `sync` renders every section: it costs as a few frames do


class CatchUpSocket(FrameConsumer):
    """What both tournament sockets share: an anonymous socket holds one of its address's
    places until it closes; `ping` is answered `pong`; `sync`, and the channel layer
    answering again after an outage, send the socket's whole view again (`send_view`)."""

    counted = False  # holds one of its address's anonymous places

    async def take_anonymous_place(self) -> bool:
        """A signed-out viewer's place at this address, if one is free (else refused)."""
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            return True
        if not limits.anonymous_by_address.take(self.address,
                                                settings.LIVE_ANONYMOUS_PER_ADDRESS):
            await self.refuse(CLOSE_TOO_MANY)
            return False
        self.counted = True
        return True

    async def send_view(self) -> None:
        raise NotImplementedError

    async def disconnect(self, code: int) -> None:
        await self.leave_groups()
        if self.counted:
            self.counted = False
            limits.anonymous_by_address.give_back(self.address)

    async def rejoined(self) -> None:
        await self.send_view()

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content["type"]
        if kind == "ping":
            await self.mark_seen()
            await self.send_json({"type": "pong"})
        elif kind == "sync":
            self.extra_cost = SYNC_COST - 1
            await self.send_view()
        else:
            await self.send_error(Code.BAD_FRAME,
                                  f"the {self.socket_kind} socket answers ping and sync only")


class TournamentConsumer(CatchUpSocket):
    """A tournament page's sections: `sections` on connect, on `sync` and when the
    channel layer answers again after an outage; then each change's frame."""

    socket_kind = "tournament"
    tournament_id = ""

    async def connect(self) -> None:
        self.tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        user = self.scope.get("user")
        member = user is not None and user.is_authenticated
        if not await self.take_anonymous_place():
            return
        try:
            exists = await db(live.exists)(self.tournament_id)
        except DATABASE_DOWN as error:
            log_database_down(error)
            await self.refuse(CLOSE_TRY_AGAIN)
            return
        if not exists:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        await self.join(live.group(self.tournament_id))  # before reading: nothing missed
        if member:
            await self.join(live.member_group(self.tournament_id, user.pk))
        await self.join_member_group()
        await self.accept()
        await self.send_sections()

    async def send_sections(self) -> None:
        try:
            frame = await db(live.viewer_sections)(self.tournament_id, self.scope.get("user"))
        except DATABASE_DOWN as error:
            await self.database_down(error)
            return
        if frame is None:  # the tournament is gone (deleted from the admin)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.send_json(frame)

    send_view = send_sections


class TournamentListConsumer(CatchUpSocket):
    """The tournaments' list (/tournaments/, `?game=` on the socket's address as on the
    page's): `list` (every row the page shows, by group) on connect, on `sync` and when the
    channel layer answers again; then a `row` frame for each tournament that changed,
    which the page files under its group (or drops, for another game). Anyone may open
    it, as the page; anonymous sockets count against the address's cap."""

    socket_kind = "tournaments"
    game: str | None = None

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.game = (query.get("game") or [""])[0][:24] or None
        if not await self.take_anonymous_place():
            return
        await self.join(live.LIST_GROUP)
        await self.join_member_group()
        await self.accept()
        await self.send_list()

    async def send_list(self) -> None:
        try:
            frame = await db(live.list_frame)(self.game)
        except DATABASE_DOWN as error:
            await self.database_down(error)
            return
        await self.send_json(frame)

    send_view = send_list
