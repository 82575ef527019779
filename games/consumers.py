"""WebSocket consumers: the game page (`/ws/game/<id>/`) and the lobby (`/ws/lobby/`).

Thin: validate the frame, call a service behind `database_sync_to_async`, send what it
returns. Frames the services broadcast arrive as `frame.send` group messages.
The fast path's pieces here (games.fast, `LIVE_FAST_PATH`): the message loop
(`FastDispatch`), the live-db threads' kept connections (`on_pool`), the common turn from
the event loop (`apply_turn_on_loop`) and warm copies that follow the group (`follow`).

What keeps a socket standing (docs/production.md, "Faults"):
- every frame is charged against the socket's and its client address's budget
  (games/limits.py), and anonymous spectators are capped per address and per game;
- a frame that cannot be parsed (not UTF-8 JSON, too deep, too big) is one `bad_frame`;
- the channel layer failing (Redis down) never breaks the socket: it is accepted and served
  from the database, joins its groups when the layer answers again and then catches the
  client up; a turn whose broadcast failed is acknowledged to its sender directly; on a
  `ping` the socket pushes any turns the client has not had;
- sending to a client that has gone is ignored, so frames it sent before it went are still
  handled (a turn sent just before a close is applied or refused, never dropped);
- a member's socket acts only while its session is still signed in: sign-out, a password
  change and deactivation close it (`session.check`), and each turn (inside its write,
  `SessionGuard`) or resign checks again;
- the database not answering (PostgreSQL restarting) is one `unavailable` error frame and a
  close with 1013 (try again later), so the client reconnects with backoff and resends its
  unacknowledged turn once the database is back; a socket opened meanwhile is refused.

Presence (games/presence.py): a game socket of a viewer without a seat counts as one
spectator while it is open; a socket that sends `{"type": "spectators"}` gets the count
then and a `spectators` frame at each change (group `spectators.<game>`); a member's
sockets mark them online.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
import uuid
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections

from . import access, audiences, broadcast, limits, metrics, presence, services
from .actors import Actor, SessionGuard, session_signed_in
from .broadcast import LOBBY_GROUP, socket_group, user_group
from .fast import loopdb, warm
from .fast.runtime import FastDispatch, on_pool
from .fast.turns import apply_turn_on_loop, follow
from .protocol import (
    DATABASE_DOWN,
    MAX_TOKEN_LENGTH,
    UNAVAILABLE_MESSAGE,
    Code,
    GameError,
    SignedOut,
    database_down_line,
)

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = limits.MAX_FRAME_BYTES  # also uvicorn's ws_max_size (cargosite/serve.py)
FRAMES_PER_SECOND = 20  # a socket's budget, in units a second (most frames cost 1)
FLOOD_STRIKES = 3  # seconds over the budget before the connection is closed
CLOSE_SIGNED_OUT = 4401
CLOSE_HIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_FLOODING = 4429
CLOSE_TOO_MANY = 4430  # too many anonymous sockets from this address or on this game
CLOSE_TRY_AGAIN = 1013  # the database is not answering: reconnect later
LAYER_RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)


_db_executor: ThreadPoolExecutor | None = None


def db(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """A service call off the event loop. On PostgreSQL it runs on a pool of
    LIVE_DB_THREADS threads (each with its own connection), so one game's database round
    trips do not queue behind another's; the row lock keeps each game's turns in order.
    SQLite allows one writer at a time, so there they share Channels' one thread
    (`database_sync_to_async`)."""
    global _db_executor
    if _on_sqlite():
        return database_sync_to_async(func)
    if _db_executor is None:
        _db_executor = ThreadPoolExecutor(settings.LIVE_DB_THREADS, thread_name_prefix="live-db")
    return on_pool(func, _db_executor)  # games.fast.runtime: the connection kept, or Channels'



@functools.cache
def _on_sqlite() -> bool:
    """Is the default database SQLite? (Asked once: `connection.vendor` goes through
    Django's per-thread connection handler, a cost at every call under load.)"""
    return connections["default"].vendor == "sqlite"


def service(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """A service call that may broadcast, run by `db`: the frames it sends are collected
    on its thread and sent here, on the event loop, once it returns (games/broadcast.py),
    also when it raised after a commit. What must follow those frames (`after_sends`:
    CargoBot's task) is run next, as a service call of its own (in the embedded default the
    bot plays there, and its frames are sent the same way)."""

    async def call(*args: Any, **kwargs: Any) -> Any:
        result, outbox, error = await db(broadcast.collected(func))(*args, **kwargs)
        await outbox.send()
        if outbox.after:
            await service(_run_all)(outbox.after)
        if error is not None:
            raise error
        return result

    return call


def _run_all(callbacks: list[Callable[[], None]]) -> None:
    for callback in callbacks:
        callback()


def close_db_threads(timeout: float = 10.0) -> None:
    """Close the event loops' connections (games.fast.loopdb) and each pool thread's database
    connection, and shut the pool down (the next `db` call makes a new one). For the end
    of a test session: `channels.testing` turns `close_old_connections` into a no-op, so
    the threads keep their connections and PostgreSQL refuses to drop the test database.
    A connection can only be closed by its own thread, so one task per thread runs
    `close_all`; the barrier keeps any thread from taking two."""
    global _db_executor
    loopdb.close_all()
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


def off_loop(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """A presence call (a Redis round trip) on a worker thread, not the event loop."""
    return sync_to_async(func, thread_sensitive=False)


async def quietly(call: Awaitable[Any]) -> Any:
    """Presence is a nicety: a store that fails (Redis down) never breaks the socket."""
    try:
        return await call
    except Exception as error:
        log.debug("presence call failed: %s", error)
        return None


def log_database_down(error: Exception) -> None:
    log.warning("the database is not answering (%s); the socket is closed with %d",
                database_down_line(error), CLOSE_TRY_AGAIN)


def _ply(value: Any) -> int | None:
    """A non-negative int (not a bool), or None."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10_000:
        return value
    return None


def _state_ply(state: dict[str, Any]) -> int:
    """The ply a state describes (every kind's state lists its turns)."""
    ply = state.get("ply")
    return ply if isinstance(ply, int) else len(state.get("turns", []))


class FrameConsumer(FastDispatch):
    """What both sockets share: the budgets, frame parsing, a channel layer that may be
    down, sends to a client that may have gone, and the session check."""

    budget: limits.Budget
    address = ""
    layer_ok = False
    gone = False  # the client went away; later sends are dropped
    revoked = False  # closed because its session ended: it acts for no one
    extra_cost = 0  # what the frame being handled costs beyond 1 (a `sync`'s answer)
    groups_joined: list[str] = []

    @classmethod
    async def encode_json(cls, content: dict[str, Any]) -> str:
        """Every frame a socket sends is encoded as its group's broadcasts are."""
        return broadcast.encode(content)

    # --- the ASGI loop, tolerant of a channel layer that does not answer ------------------

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scope = scope
        self.budget = limits.Budget(FRAMES_PER_SECOND)
        self.address = limits.address_of(scope)
        self.groups_joined = []
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.base_send = self._client_send(send)
        sources = [receive]
        if self.channel_layer is not None:
            await self._new_channel()
            sources.append(self._layer_receive)
        try:
            await self.dispatch_from(sources)  # games.fast.runtime
        except StopConsumer:
            pass

    closed = False  # a close was sent: nothing more goes out (issue #28, point 6)

    def _client_send(self, send: Any) -> Callable[[dict[str, Any]], Awaitable[None]]:
        async def send_to_client(message: dict[str, Any]) -> None:
            # After a close, uvicorn raises on any further message ("Unexpected ASGI
            # message 'websocket.close', after sending 'websocket.close'"): frames queued
            # behind a 4429 would each close again, a traceback apiece. Dropped here.
            if self.gone or self.closed:
                return
            if message.get("type") == "websocket.close":
                self.closed = True
            try:
                await send(message)
            except OSError:  # uvicorn's ClientDisconnected: the client went away
                self.gone = True
        return send_to_client

    async def _new_channel(self) -> bool:
        assert self.channel_layer is not None
        try:
            self.channel_name = await self.channel_layer.new_channel()
        except Exception as error:
            broadcast.health.failed("a new socket's channel", error)
            self.channel_name = ""
            self.layer_ok = False
            return False
        self.layer_ok = True
        return True

    async def join(self, group: str) -> None:
        """Join a group; if the layer is down, remember it and join when it answers."""
        if group not in self.groups_joined:
            self.groups_joined.append(group)
        if not self.layer_ok or self.channel_layer is None:
            return
        try:
            await self.channel_layer.group_add(group, self.channel_name)
        except Exception as error:
            broadcast.health.failed(group, error)
            self.layer_ok = False

    async def leave_groups(self) -> None:
        if self.channel_layer is None or not self.channel_name:
            return
        for group in self.groups_joined:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception as error:
                broadcast.health.failed(group, error)

    async def _layer_receive(self) -> dict[str, Any]:
        """The next channel-layer message; while the layer is down, keep trying to get a
        channel and join the groups again, then let the client catch up."""
        assert self.channel_layer is not None
        attempt = 0
        while True:
            if self.layer_ok and self.channel_name:
                try:
                    return await self.channel_layer.receive(self.channel_name)
                except Exception as error:
                    broadcast.health.failed(self.channel_name, error)
                    self.layer_ok = False
            await asyncio.sleep(LAYER_RETRY_SECONDS[min(attempt, len(LAYER_RETRY_SECONDS) - 1)])
            attempt += 1
            if not self.channel_name and not await self._new_channel():
                continue
            self.layer_ok = True
            for group in list(self.groups_joined):
                await self.join(group)
            if self.layer_ok:
                broadcast.health.succeeded()
                await self.rejoined()

    async def rejoined(self) -> None:
        """The layer answers again after this socket missed frames."""

    socket_kind = "game"
    counted_open = False

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        await super().accept(subprotocol, headers)
        if not self.counted_open:
            self.counted_open = True
            metrics.SOCKETS.labels(self.socket_kind).inc()

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        if self.counted_open:
            self.counted_open = False
            metrics.SOCKETS.labels(self.socket_kind).dec()
        await super().websocket_disconnect(message)

    # --- frames from the client -----------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        if self.closed:  # frames that arrived after this socket closed: not read
            return
        if not self.allow_frame():
            if self.budget.strikes > FLOOD_STRIKES:
                await self.close(code=CLOSE_FLOODING)
            elif self.budget.refused == 1 or self.address_refused_first:
                await self.send_error(Code.THROTTLED, "too many frames; slow down")
            return
        shared = limits.address_budget(self.address)
        self.budget.charge(1)  # the frame's own cost, before any await: sockets interleave
        shared.charge(1)
        self.extra_cost = 0
        try:
            await self.handle_text(text_data)
        except DATABASE_DOWN as error:
            await self.database_down(error)
        finally:
            if self.extra_cost:
                self.budget.charge(self.extra_cost)
                shared.charge(self.extra_cost)

    address_refused_first = False

    def allow_frame(self) -> bool:
        """Within this socket's budget and its address's?"""
        self.address_refused_first = False
        if not self.budget.allows():
            return False
        shared = limits.address_budget(self.address)
        if not shared.allows():
            self.address_refused_first = shared.refused == 1
            return False
        return True

    async def handle_text(self, text_data: str | None) -> None:
        if text_data is None:
            await self.send_error(Code.BAD_FRAME, "frames are JSON text")
            return
        if len(text_data.encode()) > MAX_FRAME_BYTES:
            await self.send_error(Code.BAD_FRAME, f"frames are at most {MAX_FRAME_BYTES} bytes")
            return
        try:
            content = orjson.loads(text_data)  # a fifth of the stdlib's time for a turn
        except (ValueError, RecursionError):  # not JSON, or nested too deep to parse
            await self.send_error(Code.BAD_FRAME, "frames are JSON objects")
            return
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self.send_error(Code.BAD_FRAME, 'frames are JSON objects with a "type"')
            return
        await self.receive_json(content)

    async def send_error(self, code: Code, message: str, ply: int | None = None) -> None:
        metrics.refused(code.code)
        await self.send_json(GameError(code, message, ply).frame())

    async def refuse(self, code: int) -> None:
        """Refuse a socket with `code`: accepted first, then closed, because a socket
        closed before it is accepted reaches the browser as an HTTP 403 with no code, and
        the page would reconnect blindly (static/js/live/socket.js reads the code)."""
        await self.accept()
        await self.close(code=code)

    async def database_down(self, error: Exception) -> None:
        """The frame's service call met a database that does not answer: its transaction did
        not commit. Say so, and close (1013) for the client to come back later."""
        log_database_down(error)
        await self.send_error(Code.UNAVAILABLE, UNAVAILABLE_MESSAGE)
        await self.close(code=CLOSE_TRY_AGAIN)

    async def frame_send(self, message: dict[str, Any]) -> None:
        """A frame a service broadcast to one of our groups, already JSON text."""
        await self.send(text_data=message["text"])

    # --- the session ----------------------------------------------------------------------

    async def join_member_group(self) -> None:
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            await self.join(socket_group(user.pk))
            await quietly(off_loop(presence.seen)(user.pk))

    async def mark_seen(self) -> None:
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            await quietly(off_loop(presence.seen)(user.pk))

    async def signed_in(self) -> bool:
        """Is the session this socket opened with still the one it acts for? (A guest's
        session must still exist; a member's must still be signed in to the member with
        the same password, and the member active.)"""
        return await db(session_signed_in)(self.scope)

    async def session_check(self, message: dict[str, Any]) -> None:
        """`session.check`: the member signed out (`ended` names that session), changed
        their password or was deactivated; close this socket if its session no longer
        holds. (The page reconnects, with whatever its session now is.)"""
        session = self.scope.get("session")
        ended = message.get("ended")
        if (ended and ended == getattr(session, "session_key", None)) \
                or not await self.signed_in():
            self.revoked = True
            await self.close(code=CLOSE_SIGNED_OUT)


class GameConsumer(FrameConsumer):
    game_id = ""
    group = ""
    actor: Actor | None = None
    seat: int | None = None
    client_ply = 0  # the ply the client has been sent frames up to
    client_rev = 0  # the game row's revision the client has been sent frames up to
    max_token = MAX_TOKEN_LENGTH  # the game kind's longest token
    counted: tuple[str, str] | None = None  # (address, game) of an anonymous spectator
    present = False  # this socket is counted on its seat (games.abandonment)
    mode = ""
    guard: SessionGuard | None = None  # the session each turn's write checks
    watching = ""  # this socket's id among the game's spectators, while it counts as one

    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.actor = Actor.of_user(self.scope.get("user"))
        try:
            state = await service(self.load_state)()
        except GameError as refused:
            await self.refuse(CLOSE_HIDDEN if refused.error == Code.HIDDEN
                              else CLOSE_NOT_FOUND)
            return
        except DATABASE_DOWN as error:
            log_database_down(error)
            await self.refuse(CLOSE_TRY_AGAIN)
            return
        if self.seat is None and (self.actor is None or self.actor.kind != "member"):
            if not self.count_anonymous():
                await self.refuse(CLOSE_TOO_MANY)
                return
        self.guard = SessionGuard(self.scope)
        await self.join(self.group)
        await self.join_member_group()
        await self.accept()
        self.client_ply = _state_ply(state)
        await self.send_json({"type": "state", "state": state})
        await self.count_spectators()

    async def count_spectators(self) -> None:
        """A spectator's socket counts itself and tells the sockets that asked for the
        count (`spectators` frames go only to those: older clients never see one)."""
        if self.seat is not None:
            return
        self.watching = uuid.uuid4().hex
        count = await quietly(off_loop(presence.watch)(self.game_id, self.watching))
        if count is not None:
            await self.tell_spectator_count(count)

    async def tell_spectator_count(self, count: int) -> None:
        if not self.layer_ok or self.channel_layer is None:
            return
        group = broadcast.spectators_group(self.game_id)
        try:
            await self.channel_layer.group_send(group, {
                "type": "frame.send",
                "text": broadcast.encode(presence.spectators_frame(self.game_id, count))})
        except Exception as error:
            broadcast.health.failed(group, error)

    async def subscribe_spectators(self) -> None:
        """`{"type": "spectators"}`: the count now, and each change from now on."""
        await self.join(broadcast.spectators_group(self.game_id))
        count = await quietly(off_loop(presence.spectators)(self.game_id))
        await self.send_json(presence.spectators_frame(self.game_id, count or 0))

    def count_anonymous(self) -> bool:
        """Take one of this address's and this game's anonymous spectator places."""
        if not limits.anonymous_by_address.take(self.address,
                                                settings.LIVE_ANONYMOUS_PER_ADDRESS):
            return False
        if not limits.anonymous_by_game.take(self.game_id, settings.LIVE_ANONYMOUS_PER_GAME):
            limits.anonymous_by_address.give_back(self.address)
            return False
        self.counted = (self.address, self.game_id)
        return True

    def load_state(self) -> dict[str, Any]:
        game = services.get_game(self.game_id)
        if access.run_open_checks(game) or services.flag_if_due(game):  # it ended on opening
            game = services.get_game(self.game_id)
        reason = access.hidden_reason(game, self.actor)
        if reason:
            raise GameError(Code.HIDDEN, reason)
        self.mode = game.mode
        self.max_token = game.kind.max_token_length
        self.seat = services.seat_of(game, self.actor)
        self.present = services.player_arrived(game, self.seat)
        lg = services.live(game)
        state = services.state_of(game, lg, viewer=self.seat)
        self.group = audiences.group_of(game, self.seat)  # the one audience it may hear
        self.client_rev = game.revision
        if self.seat is not None:  # its turns will come here (games.fast.warm)
            warm.keep_if_cold(game, lg)
        return state

    async def disconnect(self, code: int) -> None:
        if self.watching:
            watching, self.watching = self.watching, ""
            count = await quietly(off_loop(presence.unwatch)(self.game_id, watching))
            if count is not None:
                await self.tell_spectator_count(count)
        await self.leave_groups()
        if self.present and self.seat is not None:
            self.present = False
            await db(services.player_went_away)(self.game_id, self.seat)
        if self.counted is not None:
            address, game_id = self.counted
            limits.anonymous_by_address.give_back(address)
            limits.anonymous_by_game.give_back(game_id)
            self.counted = None

    async def frame_send(self, message: dict[str, Any]) -> None:
        await super().frame_send(message)
        revision = message.get("revision")
        if isinstance(revision, int):
            follow(self.game_id, revision, message.get("turn"))  # games.fast
            self.client_rev = max(self.client_rev, revision)
        ply = message.get("ply")
        if isinstance(ply, int) and ply > self.client_ply:
            self.client_ply = ply

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content["type"]
        if kind == "ping":
            await self.catch_up_if_behind()
            if self.watching:
                await quietly(off_loop(presence.watch)(self.game_id, self.watching))
            await self.mark_seen()
            await self.send_json({"type": "pong"})
        elif kind == "turn":
            ply, token = _ply(content.get("ply")), content.get("token")
            if ply is None or not isinstance(token, str) or not token \
                    or len(token) > self.max_token:
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
        elif kind == "spectators":
            await self.subscribe_spectators()
        elif kind == "abort":
            await self.call(self.abort)
        elif kind == "claim":
            result = content.get("result")
            if result not in ("win", "draw"):
                await self.send_error(Code.BAD_FRAME,
                                      'a claim is {"type": "claim", "result": "win" | "draw"}')
                return
            await self.call(self.claim, result)
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
            metrics.refused(refused.code)
            await self.send_json(refused.frame())
            if refused.state is not None:  # a stale ply, a refused abort or claim
                await self.send_json({"type": "state", "state": refused.state})
            if self.revoked:
                await self.close(code=CLOSE_SIGNED_OUT)

    async def check_player(self, what: str, *, session: bool = True) -> None:
        """A seat's socket whose session still holds (`session=False`: the caller's write
        checks the session itself)."""
        if self.seat is None:
            raise GameError(Code.NOT_A_PLAYER, f"spectators cannot {what}")
        if self.revoked or (session and not await self.signed_in()):
            self.revoked = True  # `call` sends the refusal, then closes
            raise SignedOut()

    async def play(self, ply: int, token: str) -> None:
        await self.check_player("play", session=False)
        if access.has_open_checks(self.mode):
            await service(access.run_open_checks_for)(self.game_id)
        try:
            result = None
            if loopdb.enabled():  # the common turn, without a thread (games.fast.turns)
                result = await apply_turn_on_loop(
                    self.game_id, actor=self.actor, ply=ply, token=token, guard=self.guard)
            if result is None:
                result = await service(services.apply_turn)(
                    self.game_id, actor=self.actor, ply=ply, token=token, guard=self.guard)
        except SignedOut:
            self.revoked = True
            raise
        # A fresh turn's acknowledgement is the group broadcast, unless that failed.
        if result.duplicate or not result.delivered:
            await self.send_json(result.frame)
        self.client_ply = max(self.client_ply, _state_ply(result.frame["state"]))

    async def resign(self, ply: int | None) -> None:
        await self.check_player("resign")
        if access.has_open_checks(self.mode):
            await service(access.run_open_checks_for)(self.game_id)
        failed_before = broadcast.failures()
        frame = await service(services.resign)(self.game_id, actor=self.actor, ply=ply)
        if broadcast.failures() != failed_before:  # the group may not have had it
            await self.send_json(frame)

    async def abort(self) -> None:
        await self.check_player("abort the game")
        failed_before = broadcast.failures()
        frame = await db(services.abort_game)(self.game_id, actor=self.actor)
        if broadcast.failures() != failed_before:
            await self.send_json(frame)

    async def claim(self, result: str) -> None:
        await self.check_player("claim the game")
        failed_before = broadcast.failures()
        frame = await db(services.claim_game)(self.game_id, actor=self.actor, result=result)
        if broadcast.failures() != failed_before:
            await self.send_json(frame)

    async def sync(self, after: int) -> None:
        data = await db(services.catch_up)(self.game_id, after=after, viewer=self.seat)
        await self.send_catch_up(data)

    async def send_catch_up(self, data: dict[str, Any]) -> None:
        sent = 0
        for frame in data["turns"]:
            text = broadcast.encode(frame)
            sent += len(text)
            await self.send(text_data=text)
        await self.send_json({"type": "state", "state": data["state"]})
        self.extra_cost += limits.sync_cost(sent)
        self.client_ply = max(self.client_ply, _state_ply(data["state"]))
        self.client_rev = max(self.client_rev, data.get("rev", 0))

    async def catch_up_if_behind(self) -> None:
        """Frames the group could not bring (the layer was down): push what the client
        lacks, as if it had sent `sync`: turns it has not had, and the state when the row
        changed since its last frame (a resignation, an ending, a rematch, a void)."""
        now = await db(services.current_revision)(self.game_id)
        if now is not None and (now[0] > self.client_ply or now[1] > self.client_rev):
            data = await db(services.catch_up)(self.game_id, after=self.client_ply,
                                                viewer=self.seat)
            await self.send_catch_up(data)

    async def rejoined(self) -> None:
        if self.group:
            await self.catch_up_if_behind()


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
