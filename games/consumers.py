"""WebSocket consumers: the game page (`/ws/game/<id>/`) and the lobby (`/ws/lobby/`).

Thin: validate the frame, call a service behind `database_sync_to_async`, send what it
returns. Frames the services broadcast arrive as `frame.send` group messages.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import connection, connections

from . import access, services
from .actors import Actor
from .broadcast import LOBBY_GROUP, game_group, user_group
from .protocol import MAX_TOKEN_LENGTH, Code, GameError

MAX_FRAME_BYTES = 4096
FRAMES_PER_SECOND = 20
FLOOD_STRIKES = 3  # seconds over the limit before the connection is closed
CLOSE_HIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_FLOODING = 4429


_db_executor: ThreadPoolExecutor | None = None


def db(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """`database_sync_to_async` for service calls. On PostgreSQL they run on a pool of
    LIVE_DB_THREADS threads (each with its own connection), so one game's database round
    trips do not queue behind another's; the row lock keeps each game's turns in order.
    SQLite allows one writer at a time, so there they share Channels' one thread."""
    global _db_executor
    if connection.vendor == "sqlite":
        return database_sync_to_async(func)
    if _db_executor is None:
        _db_executor = ThreadPoolExecutor(settings.LIVE_DB_THREADS, thread_name_prefix="live-db")
    return database_sync_to_async(func, thread_sensitive=False, executor=_db_executor)


def close_db_threads(timeout: float = 10.0) -> None:
    """Close each pool thread's database connection and shut the pool down (the next
    `db` call makes a new one). For the end of a test session: `channels.testing` turns
    `close_old_connections` into a no-op, so the threads keep their connections and
    PostgreSQL refuses to drop the test database. A connection can only be closed by its
    own thread, so one task per thread runs `close_all`; the barrier keeps any thread
    from taking two."""
    global _db_executor
    executor, _db_executor = _db_executor, None
    if executor is None:
        return
    threads = executor._max_workers
    barrier = threading.Barrier(threads, timeout=timeout)

    def close() -> None:
        barrier.wait()
        connections.close_all()

    try:
        for future in [executor.submit(close) for _ in range(threads)]:
            future.result()
    finally:
        executor.shutdown(wait=True)


def _ply(value: Any) -> int | None:
    """A non-negative int (not a bool), or None."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10_000:
        return value
    return None


class FrameConsumer(AsyncJsonWebsocketConsumer):
    """Size limit, JSON-object check and flood throttling shared by both sockets."""

    window_start = 0.0
    window_count = 0
    strikes = 0

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        if not self.allow_frame():
            if self.strikes > FLOOD_STRIKES:
                await self.close(code=CLOSE_FLOODING)
            elif self.window_count == FRAMES_PER_SECOND + 1:
                await self.send_error(Code.THROTTLED, "too many frames; slow down")
            return
        if text_data is None:
            await self.send_error(Code.BAD_FRAME, "frames are JSON text")
            return
        if len(text_data.encode()) > MAX_FRAME_BYTES:
            await self.send_error(Code.BAD_FRAME, f"frames are at most {MAX_FRAME_BYTES} bytes")
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self.send_error(Code.BAD_FRAME, "frames are JSON objects")
            return
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self.send_error(Code.BAD_FRAME, 'frames are JSON objects with a "type"')
            return
        await self.receive_json(content)

    def allow_frame(self) -> bool:
        now = time.monotonic()
        if now - self.window_start >= 1.0:
            if self.window_count <= FRAMES_PER_SECOND:
                self.strikes = 0
            self.window_start = now
            self.window_count = 0
        self.window_count += 1
        if self.window_count > FRAMES_PER_SECOND:
            if self.window_count == FRAMES_PER_SECOND + 1:
                self.strikes += 1
            return False
        return True

    async def send_error(self, code: Code, message: str, ply: int | None = None) -> None:
        await self.send_json(GameError(code, message, ply).frame())

    async def frame_send(self, message: dict[str, Any]) -> None:
        """A frame a service broadcast to one of our groups, already JSON text."""
        await self.send(text_data=message["text"])


class GameConsumer(FrameConsumer):
    game_id = ""
    group = ""
    actor: Actor | None = None
    seat: int | None = None
    mode = ""

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.actor = Actor.of_user(self.scope.get("user"))
        try:
            state = await db(self.load_state)()
        except GameError as refused:
            await self.close(code=CLOSE_HIDDEN if refused.error == Code.HIDDEN
                             else CLOSE_NOT_FOUND)
            return
        self.group = game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "state", "state": state})

    def load_state(self) -> dict[str, Any]:
        game = services.get_game(self.game_id)
        if access.run_open_checks(game):  # an app ended the game on opening it
            game = services.get_game(self.game_id)
        reason = access.hidden_reason(game, self.actor)
        if reason:
            raise GameError(Code.HIDDEN, reason)
        self.mode = game.mode
        self.seat = services.seat_of(game, self.actor)
        return services.state_of(game, viewer=self.seat)

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content["type"]
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "turn":
            ply, token = _ply(content.get("ply")), content.get("token")
            if ply is None or not isinstance(token, str) or not token \
                    or len(token) > MAX_TOKEN_LENGTH:
                await self.send_error(Code.BAD_FRAME, 'a turn is {"type": "turn", "ply": int, '
                                      '"token": str}')
                return
            await self.call(self.play, ply, token)
        elif kind == "resign":
            if "ply" in content and _ply(content["ply"]) is None:
                await self.send_error(Code.BAD_FRAME,
                                      'a resign is {"type": "resign", "ply": int}')
                return
            await self.call(self.resign, content.get("ply"))
        elif kind == "sync":
            after = _ply(content.get("after"))
            if after is None:
                await self.send_error(Code.BAD_FRAME,
                                      'a sync is {"type": "sync", "after": int}')
                return
            await self.call(self.sync, after)
        else:
            await self.send_error(Code.BAD_FRAME, f"unknown frame type {kind[:32]!r}")

    async def call(self, handler: Callable[..., Awaitable[None]], *args: Any) -> None:
        try:
            await handler(*args)
        except GameError as refused:
            await self.send_json(refused.frame())
            if refused.error == Code.STALE_PLY and refused.state is not None:
                await self.send_json({"type": "state", "state": refused.state})

    async def play(self, ply: int, token: str) -> None:
        if self.seat is None:
            raise GameError(Code.NOT_A_PLAYER, "spectators cannot play")
        if access.has_open_checks(self.mode):
            await db(access.run_open_checks_for)(self.game_id)
        result = await db(services.apply_turn)(
            self.game_id, actor=self.actor, ply=ply, token=token
        )
        if result.duplicate:  # a fresh turn's acknowledgement is the group broadcast
            await self.send_json(result.frame)

    async def resign(self, ply: int | None) -> None:
        if self.seat is None:
            raise GameError(Code.NOT_A_PLAYER, "spectators cannot resign")
        if access.has_open_checks(self.mode):
            await db(access.run_open_checks_for)(self.game_id)
        await db(services.resign)(self.game_id, actor=self.actor, ply=ply)

    async def sync(self, after: int) -> None:
        data = await db(services.catch_up)(self.game_id, after=after, viewer=self.seat)
        for frame in data["turns"]:
            await self.send_json(frame)
        await self.send_json({"type": "state", "state": data["state"]})


class LobbyConsumer(FrameConsumer):
    """Open seeks, live: `seeks` on connect, then `seek_added` / `seek_removed`, and
    `seek_accepted` (with the game's URL) to the creator of a seek or challenge."""

    groups_joined: list[str] = []

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.groups_joined = [LOBBY_GROUP]
        if user is not None and user.is_authenticated:
            self.groups_joined.append(user_group(user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        seeks = await db(services.open_seeks)()
        await self.send_json({"type": "seeks", "seeks": seeks})

    async def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        if content["type"] == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.send_error(Code.BAD_FRAME, "the lobby socket only answers ping")
