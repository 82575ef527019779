"""The sockets' shared runtime: what every WebSocket consumer of the site stands on.

- The service calls off the event loop: `db` (the live-db threads on PostgreSQL, Channels'
  one thread on SQLite), `service` (a call that broadcasts: its frames sent here once it
  returns), `off_loop` and `quietly` for presence, `close_db_threads` for a test session's
  end.
- `FrameConsumer`, the base of both sockets: the fast path's message loop
  (`games.fast.runtime.FastDispatch`, `LIVE_FAST_PATH`), the budgets and close codes,
  frame parsing, a channel layer that may be down, sends to a client that may have gone,
  and the session check.

What keeps a socket standing (docs/production.md, "Faults"):
- every frame is charged against the socket's and its client address's budget
  (games/sockets/limits.py), and anonymous spectators are capped per address and per game;
- a frame that cannot be parsed (not UTF-8 JSON, too deep, too big) is one `bad_frame`;
- the channel layer failing (Redis down) never breaks the socket: it is accepted and served
  from the database, joins its groups when the layer answers again and then catches the
  client up (`rejoined`);
- sending to a client that has gone is ignored, so frames it sent before it went are still
  handled (a turn sent just before a close is applied or refused, never dropped);
- a member's socket acts only while its session is still signed in: sign-out, a password
  change and deactivation close it (`session.check`);
- the database not answering (PostgreSQL restarting) is one `unavailable` error frame and a
  close with 1013 (try again later), so the client reconnects with backoff and resends its
  unacknowledged turn once the database is back; a socket opened meanwhile is refused.

The game socket is games/sockets/game.py, the lobby's games/sockets/lobby.py.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
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

from games.actors import session_signed_in
from games.fast import loopdb
from games.fast.runtime import FastDispatch, on_pool
from games.frames import broadcast, metrics, presence
from games.frames.broadcast import socket_group
from games.frames.protocol import (
    DATABASE_DOWN,
    UNAVAILABLE_MESSAGE,
    Code,
    GameError,
    database_down_line,
)
from games.sockets import limits, renders

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
    on its thread and sent here, on the event loop, once it returns (games/frames/broadcast.py),
    also when it raised after a commit. What must follow those frames (`after_sends`:
    CargoBot's task) is started next, as a service call of its own that the caller does not
    wait for (`follow`)."""

    async def call(*args: Any, **kwargs: Any) -> Any:
        renders.loop_is(asyncio.get_running_loop())  # for a render its commit starts
        result, outbox, error = await db(broadcast.collected(func))(*args, **kwargs)
        await outbox.send()
        if outbox.after:
            follow(outbox.after)
        if error is not None:
            raise error
        return result

    return call


_following: set[asyncio.Task[Any]] = set()  # held until done: the loop keeps weak references


class _FollowUps:
    """The follow-up calls not ended yet, for `settle_follow_ups`."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._count = 0

    def add(self) -> None:
        with self._changed:
            self._count += 1

    def end(self) -> None:
        with self._changed:
            self._count -= 1
            self._changed.notify_all()

    def wait(self, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self._count == 0, timeout)


_follow_ups = _FollowUps()


class _FollowUp:
    """One follow-up call, counted from when its thread begins it to when it ends (a
    count that always comes back down: a call whose task ended first, its loop closed,
    is dropped, as a task of a closed loop is, and never counted)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.started = self.dropped = False

    def start(self) -> bool:
        with self._lock:
            if self.dropped:
                return False
            self.started = True
        _follow_ups.add()
        return True

    def end(self) -> None:
        _follow_ups.end()

    def drop_unstarted(self) -> None:
        with self._lock:
            self.dropped = not self.started


def follow(callbacks: list[Callable[[], None]]) -> asyncio.Task[Any]:
    """Run `callbacks` (what follows a service call's frames) as a service call of their
    own, without the caller waiting. In the embedded default CargoBot plays there (its task
    runs in-process): a socket's consumer handles one message at a time, so waiting would
    hold the player's own answer, and every frame to that socket, until the bot had chosen
    its reply. With workers the callbacks only send the task to the broker (and a game
    end's `AFTER_FRAMES` handlers run there: the stats, the achievements)."""
    call = _FollowUp()

    def run_all() -> None:
        if not call.start():
            return
        try:
            _run_all(callbacks)
        finally:
            call.end()

    async def run() -> None:
        try:
            await service(run_all)()
        except Exception:  # nothing waits for it: say so here
            log.exception("what follows a service call's frames failed")

    task = asyncio.get_running_loop().create_task(run())
    _following.add(task)
    task.add_done_callback(_following.discard)
    task.add_done_callback(lambda _task: call.drop_unstarted())
    return task


def settle_follow_ups(timeout: float = 10.0) -> bool:
    """Wait until no follow-up call (`follow`) is running on its thread; False if some
    still were after `timeout` seconds. For a test's tear-down: a socket's game end
    writes its stats and achievements in a follow-up after the socket's call returned,
    and a flush of the tables must not meet those writes. (One queued for a thread and
    not begun is not waited for.)"""
    return _follow_ups.wait(timeout)


async def followed() -> None:
    """Wait for what `follow` started (for tests: the site never waits for it)."""
    while _following:
        await asyncio.gather(*list(_following), return_exceptions=True)


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
    renders.close(timeout)
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


def ply_of(value: Any) -> int | None:
    """A non-negative int (not a bool), or None."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10_000:
        return value
    return None


def state_ply(state: dict[str, Any]) -> int:
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

    async def leave(self, group: str) -> None:
        """Leave one group (and do not join it again when the layer comes back)."""
        if group in self.groups_joined:
            self.groups_joined.remove(group)
        if self.channel_layer is None or not self.channel_name or not self.layer_ok:
            return
        try:
            await self.channel_layer.group_discard(group, self.channel_name)
        except Exception as error:
            broadcast.health.failed(group, error)

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
            elif self.budget.refused == 1 or self.address_refused_first \
                    or self.awaits_answer(text_data):
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
    answered: frozenset[str] = frozenset()  # frame types whose sender awaits an answer

    def awaits_answer(self, text_data: str | None) -> bool:
        """Is a refused frame a decision, whose sender waits for its answer? Each gets
        its `throttled` error, not only a window's first refused frame: a page waiting on
        its decision is never left without one (issue #42). Other refused frames (pings,
        syncs, floods of anything else) stay unanswered after the window's first."""
        if not self.answered or text_data is None or len(text_data) > MAX_FRAME_BYTES:
            return False
        try:
            content = orjson.loads(text_data)
        except (ValueError, RecursionError):
            return False
        return isinstance(content, dict) and content.get("type") in self.answered

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


class SocketParts(FrameConsumer):
    """Where an app built on the platform adds its part to the game socket, without the
    platform importing it: the app's part subclasses this and overrides the hooks, each
    calling `super()` first; the top layer composes the routed socket from the parts and
    `GameConsumer` (cargosite/routing.py: the table chat, chat/socket.py). Each hook does
    nothing here, so a socket without parts is the game alone."""

    def parts_open(self, game: Any) -> None:
        """On the database thread, with the game the socket loaded (and may show)."""

    async def parts_join(self) -> None:
        """Join the parts' groups, once the socket has joined its game's audience."""

    async def parts_receive(self, kind: str, content: dict[str, Any]) -> bool:
        """A frame of a type the game does not handle: True if a part took it."""
        return False
