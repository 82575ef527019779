"""The live streams' subscriptions: NDJSON lines read off the channel layer, from the very
groups a socket of the same viewer joins, carrying the very texts the sockets send.

- `Subscription`: one channel of the layer (`new_channel`), added to groups and read one
  message at a time with a time limit (the keep-alive).
- A game's stream (`open_game`, `game_lines`): the viewer is the seat the token's member
  holds (`services.seat_of`), else a spectator, exactly as `games.sockets.game` finds it;
  the stream joins the one group that viewer may hear (`audiences.group_of`: a seat's own
  group of a kind that hides information, the spectators' otherwise), its first line is
  the viewer's state (`services.state_of` with the seat's pre-turns, as the socket's first
  frame), and each later line is a group message's `text` as it arrived: built once per
  audience by the games app (games/frames/audiences.py), never built or filtered here, so
  the stream follows whatever the sockets send. Like a socket it keeps the row's ply and
  revision it has passed on; when it has been quiet for the keep-alive's span it writes an
  empty line, checks that its token is still live, and catches up from the row when the
  row is further on (`services.catch_up` for its viewer: the turns it lacks, then the
  state). A `seat.changed` message moves it to the audience its viewer has now (the
  seat's frames already on their way are dropped), as the socket moves. It closes after
  the frame whose state says the game is over (or, for a frame without a state, once the
  row says so), or when the layer stops answering (the client reconnects and starts from
  the state again).
- An account's event stream (`event_lines`): the member's groups a socket joins,
  `user.<id>` (tables: `seek_changed`, `seek_accepted` when another seat's join started
  a table the member sat at, `seek_removed`; challenges: `challenge` to the member it is
  to, `challengeDeclined` to its maker, `challengeCanceled` to the member it was to;
  `gameStart` when a game of the member's starts, api.events) and `sockets.<id>`
  (`notification`: a correspondence game's "your turn", a table joined or started, a
  rematch offered, a challenge, a game ended; `session.check` messages are the sockets' own
  and are not passed on), after an opening line per game in progress (`gameStart`,
  lichess's name, with whether it waits on the member).

Under WSGI (no event loop to wait on) a stream sends its opening lines and closes
(`opening_only`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.urls import reverse

from chat import rooms as chat_rooms
from chat import services as chat
from games import access, services
from games.actors import Actor
from games.frames import audiences
from games.frames.broadcast import socket_group, user_group
from games.models import Game

from .auth import still_live
from .errors import ApiError, Code

log = logging.getLogger(__name__)

Line = bytes
KEEP_ALIVE = b"\n"  # lichess's keep-alive: an empty line
OVER = {Game.Status.FINISHED.value, Game.Status.VOIDED.value, Game.Status.ABORTED.value}
ENDING_TYPES = {"resigned", "ended", "voided"}  # frames that may end a game
PLAIN = "frame.send"  # the group message of a frame (games.frames.broadcast)
CHAT, MUTES = "chat.frame", "chat.mutes"  # the chat's group messages (chat.services)


def line(frame: dict[str, Any]) -> Line:
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS) + b"\n"


class LayerDown(Exception):
    """The channel layer did not answer: the stream closes, the client reconnects."""


class Subscription:
    """One channel of the channel layer, in some groups, read a message at a time."""

    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.channel = ""
        self.groups: list[str] = []
        self.pending: asyncio.Future[dict[str, Any]] | None = None  # a read under way

    async def open(self) -> None:
        if self.layer is None:
            raise LayerDown("no channel layer")
        try:
            self.channel = await self.layer.new_channel("api.stream.")
        except Exception as error:
            raise LayerDown(str(error)) from error

    async def join(self, group: str) -> None:
        try:
            await self.layer.group_add(group, self.channel)
        except Exception as error:
            raise LayerDown(str(error)) from error
        self.groups.append(group)

    async def leave(self, group: str) -> None:
        if group in self.groups:
            self.groups.remove(group)
        with contextlib.suppress(Exception):
            await self.layer.group_discard(group, self.channel)

    async def next(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or None after `timeout` seconds of quiet. The layer's
        `receive` is never cancelled by the wait: channels_redis's pub/sub layer takes a
        cancelled `receive` for its consumer going away and drops the channel's
        subscriptions, so one read stays pending across keep-alives."""
        if self.pending is None:
            self.pending = asyncio.ensure_future(self.layer.receive(self.channel))
        done, _ = await asyncio.wait({self.pending}, timeout=timeout)
        if not done:
            return None
        read, self.pending = self.pending, None
        try:
            return read.result()
        except Exception as error:
            raise LayerDown(str(error)) from error

    async def close(self) -> None:
        for group in list(self.groups):
            await self.leave(group)
        if self.pending is not None:  # the channel is done with: the layer may clean up
            self.pending.cancel()
            with contextlib.suppress(BaseException):
                await self.pending
            self.pending = None


def keep_alive_seconds() -> float:
    return float(settings.API_STREAM_KEEPALIVE)


# One game's stream


@dataclass
class Watched:
    """A game's stream's viewer: whom its frames are for, and what it has passed on."""

    game_id: str
    actor: Actor
    key: str  # the asker's key (`api.auth.Bearer.key`)
    seat: int | None = None
    group: str = ""
    state: dict[str, Any] = field(default_factory=dict)
    ply: int = 0  # the row's ply the stream has passed frames up to
    since: int = 0  # the ply of the state the stream opened with (turns before: in it)
    revision: int = 0  # the row's revision likewise
    over: bool = False
    left: set[str] = field(default_factory=set)  # groups left (the seat changed hands)
    told: set[int] = field(default_factory=set)  # turn plies passed on
    chat_group: str = ""  # the chat group a socket of this viewer joins (chat.rooms)
    muted: frozenset[int] = frozenset()  # members whose chat lines the viewer muted


def load(watched: Watched) -> dict[str, Any]:
    """The viewer's state as its socket's first frame has it, and its group (synchronous:
    the endpoint runs it first, so a refusal is an ordinary JSON answer)."""
    try:
        game = services.get_game(watched.game_id)
        if access.run_open_checks(game) or services.flag_if_due(game):
            game = services.get_game(watched.game_id)
    except services.NotFound:
        raise ApiError(Code.NOT_FOUND, f"No game {watched.game_id}.") from None
    reason = access.hidden_reason(game, watched.actor)
    if reason:
        raise ApiError(Code.HIDDEN, reason)
    watched.seat = services.seat_of(game, watched.actor)
    watched.chat_group = chat_rooms.group_of(game.id, chat_rooms.is_player(game, watched.actor))
    watched.muted = chat.muted_ids(watched.actor.user_id)
    lg = services.live(game)
    state = services.with_queue(services.state_of(game, lg, viewer=watched.seat), game,
                                watched.seat, lg)
    watched.group = audiences.group_of(game, watched.seat)
    watched.state = state
    watched.ply = watched.since = _ply(state, game.ply)
    watched.revision = game.revision
    watched.over = game.is_over
    return state


def _ply(state: dict[str, Any], default: int) -> int:
    ply = state.get("ply", len(state["turns"]) if "turns" in state else default)
    return ply if isinstance(ply, int) else default


def open_game(game_id: str, actor: Actor, key: str) -> Watched:
    watched = Watched(game_id=game_id, actor=actor, key=key)
    load(watched)
    return watched


def opening_only(first: Line) -> Iterator[Line]:
    yield first


def _holds_seat(watched: Watched) -> bool:
    game = services.get_game(watched.game_id)
    return watched.seat is not None and watched.actor.holds(game.seat_list[watched.seat])


def _is_over(game_id: str) -> bool:
    return services.get_game(game_id).is_over


async def _frame_lines(watched: Watched, message: dict[str, Any]) -> list[Line]:
    """A group message as the stream's lines: the frame's text as sent to the sockets."""
    if message.get("group") in watched.left:
        return []
    turn = message.get("turn")
    if turn and isinstance(turn[0], int):
        if turn[0] in watched.told or turn[0] < watched.since:
            return []  # passed on already, or in the state the stream opened with
        watched.told.add(turn[0])
    text = message.get("text")
    if not isinstance(text, str):
        return []
    revision, ply = message.get("revision"), message.get("ply")
    if isinstance(revision, int):
        watched.revision = max(watched.revision, revision)
    if isinstance(ply, int):
        watched.ply = max(watched.ply, ply)
    frame = orjson.loads(text)
    state = frame.get("state")
    if isinstance(state, dict) and "status" in state:
        watched.over = state["status"] in OVER
    elif frame.get("type") in ENDING_TYPES:
        watched.over = await database_sync_to_async(_is_over)(watched.game_id)
    return [text.encode() + b"\n"]


async def _catch_up(watched: Watched) -> list[Line]:
    """What the group could not bring (the layer lost it, or it came between reading the
    state and joining): the turns the stream lacks and the state, as a socket's catch-up."""
    now = await database_sync_to_async(services.current_revision)(watched.game_id)
    if now is None or (now[0] <= watched.ply and now[1] <= watched.revision):
        return []
    if watched.seat is not None and not await database_sync_to_async(_holds_seat)(watched):
        return []  # the seat changed hands: `seat.changed` moves the stream
    data = await database_sync_to_async(services.catch_up)(
        watched.game_id, after=watched.ply, viewer=watched.seat)
    out = []
    for frame in data["turns"]:
        ply = frame.get("ply")
        if isinstance(ply, int):
            if ply in watched.told:
                continue
            watched.told.add(ply)
        out.append(line(frame))
    state = data["state"]
    out.append(line({"type": "state", "state": state}))
    watched.ply = max(watched.ply, _ply(state, watched.ply))
    watched.revision = max(watched.revision, data.get("rev", 0))
    watched.over = state.get("status") in OVER
    return out


async def _moved(watched: Watched, subscription: Subscription, message: dict[str, Any]
                 ) -> list[Line]:
    """`seat.changed`: unless the member still holds the seat, leave its group for the
    audience the viewer has now and send that viewer's state (as the socket moves)."""
    if watched.seat is None or message.get("seat") != watched.seat:
        return []
    if await database_sync_to_async(_holds_seat)(watched):
        return []
    old = watched.group
    state = await database_sync_to_async(load)(watched)
    if watched.group != old:
        watched.left.add(old)
        await subscription.leave(old)
        await subscription.join(watched.group)
    return [line({"type": "state", "state": state})]


async def game_lines(watched: Watched) -> AsyncIterator[Line]:
    """The stream of one game for its viewer: the state, then each frame as it comes."""
    subscription = Subscription()
    present = False
    try:
        try:
            await subscription.open()
            await subscription.join(watched.group)
            await subscription.join(watched.chat_group)
            if watched.actor.user_id is not None:
                await subscription.join(chat_rooms.member_group(watched.actor.user_id))
        except LayerDown:
            yield line({"type": "state", "state": watched.state})
            return
        # Joined: a change written since the state was read (its frame went before the
        # group had this stream) is in the state read again now; one written later comes
        # through the group, and its frame is dropped if the state already has it.
        now = await database_sync_to_async(services.current_revision)(watched.game_id)
        if now is not None and (now[0], now[1]) != (watched.ply, watched.revision):
            await database_sync_to_async(load)(watched)
        if watched.seat is not None and not watched.over:
            present = await database_sync_to_async(_arrived)(watched)
        yield line({"type": "state", "state": watched.state})
        while not watched.over:
            message = await subscription.next(keep_alive_seconds())
            if message is None:
                if not await database_sync_to_async(still_live)(watched.key):
                    return
                yield KEEP_ALIVE
                for out in await _catch_up(watched):
                    yield out
                continue
            kind = message.get("type")
            if kind == PLAIN:
                lines = await _frame_lines(watched, message)
            elif kind == audiences.SEAT_CHANGED:
                lines = await _moved(watched, subscription, message)
            elif kind in (CHAT, MUTES):
                lines = _chat_lines(watched, message)
            else:
                lines = []
            for out in lines:
                yield out
    except LayerDown as error:
        log.info("a game stream of %s closed: the channel layer stopped answering (%s)",
                 watched.game_id, error)
    finally:
        await asyncio.shield(_closed(subscription, watched, present))


def _chat_lines(watched: Watched, message: dict[str, Any]) -> list[Line]:
    """A chat group message: a frame's text as the sockets get it (unless its author is
    muted), or the member's mutes changed (on any of their sockets)."""
    if message.get("type") == MUTES:
        watched.muted = frozenset(message.get("ids") or ())
        return []
    text = message.get("text")
    if not isinstance(text, str) or message.get("author") in watched.muted:
        return []
    return [text.encode() + b"\n"]


def _arrived(watched: Watched) -> bool:
    """A seat's stream counts as its player at the board, as a seat's socket does."""
    game = services.get_game(watched.game_id)
    return services.player_arrived(game, watched.seat)


async def _closed(subscription: Subscription, watched: Watched, present: bool) -> None:
    await subscription.close()
    if present and watched.seat is not None:
        with contextlib.suppress(Exception):
            await database_sync_to_async(services.player_went_away)(watched.game_id,
                                                                     watched.seat)


# An account's events


def game_start(item: Any) -> dict[str, Any]:
    """A `gameStart` event of one of the member's games in progress (a
    `games.tables.waiting.WaitingGame`): the stream's first lines, and the event sent when
    a game of theirs starts (api.events)."""
    game = item.game
    return {"type": "gameStart", "game": {
        "id": game.id, "game_type": game.game_type, "seats": list(item.seats),
        "your_turn": item.waiting_for_you,
        "deadline": item.deadline.isoformat() if item.deadline else None,
        "url": reverse("games:game", kwargs={"game_id": game.id})}}


def opening_events(user: Any) -> list[Line]:
    """A `gameStart` line per game in progress of the member's (lichess's first lines)."""
    return [line(game_start(item)) for item in services.waiting_games(user)]


async def event_lines(user_id: int, key: str, opening: list[Line]
                      ) -> AsyncIterator[Line]:
    """The member's events: the opening lines, then each frame their groups carry."""
    subscription = Subscription()
    try:
        try:
            await subscription.open()
            for group in (user_group(user_id), socket_group(user_id)):
                await subscription.join(group)
        except LayerDown:
            for out in opening:
                yield out
            return
        for out in opening:
            yield out
        while True:
            message = await subscription.next(keep_alive_seconds())
            if message is None:
                if not await database_sync_to_async(still_live)(key):
                    return
                yield KEEP_ALIVE
                continue
            text = message.get("text")
            if message.get("type") == PLAIN and isinstance(text, str):
                yield text.encode() + b"\n"
    except LayerDown as error:
        log.info("an event stream closed: the channel layer stopped answering (%s)", error)
    finally:
        await asyncio.shield(subscription.close())
