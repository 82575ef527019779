"""Groups and sending: every frame goes to a channel-layer group, after commit.

The game's group (`game.<id>`) gets turn, resign, rematch, void frames; a member's group
(`user.<id>`) gets lobby news meant for them; `lobby` gets seeks as they come and go;
`sockets.<user id>` reaches every socket a member has open (both kinds), to make them check
their session after a sign-out, a password change or a deactivation; `spectators.<game>`
gets a game's spectator count as it changes (only sockets that asked for it).

A send that fails (Redis down) never fails the caller: what was committed stays committed,
the failure is counted (`failures`), logged once per outage rather than once per frame,
and clients repair by catching up (docs/live-protocol.md). `Delivery.sent` tells the caller
whether the group got the frame, so a turn's sender can be acknowledged directly when it did
not.

A service called from a socket runs on a worker thread; its sends are collected there
(`collected`) and sent by the socket on the event loop once the service returns, so the
thread (and the game's warm copy it holds) is not kept waiting on Redis, and the sends keep
their order. What must follow the frames (`after_sends`: sending CargoBot's task, whose
worker may broadcast the bot's reply within milliseconds) waits in the outbox too, and is
run once its frames are sent, so a page never gets the reply before the turn it answers.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def game_group(game_id: str) -> str:
    return f"game.{game_id}"


def spectators_group(game_id: str) -> str:
    """The sockets of one game that asked for its spectator count (games/frames/presence.py)."""
    return f"spectators.{game_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def socket_group(user_id: int) -> str:
    """Every open socket of one member (game and lobby sockets alike)."""
    return f"sockets.{user_id}"


TurnMade = tuple[int, int, str]  # a turn's ply, seat and token, beside its frame


@dataclass
class Delivery:
    """Whether a frame sent on commit reached the channel layer (None: not yet sent)."""

    sent: bool | None = None


class _Health:
    """Failures counted since the process started, and whether the layer is failing now
    (so an outage is logged when it starts and when it ends, not at every frame)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.failures = 0
        self.failing_since: int | None = None  # the failure count when the outage began

    def failed(self, group: str, error: BaseException) -> None:
        from games.frames import metrics

        metrics.BROADCAST_FAILURES.inc()
        with self.lock:
            self.failures += 1
            first = self.failing_since is None
            if first:
                self.failing_since = self.failures
        if first:
            log.warning("channel layer send to %s failed (%s: %s); frames are dropped until "
                        "it answers and clients catch up by sync", group,
                        type(error).__name__, error)

    def succeeded(self) -> None:
        if self.failing_since is None:
            return
        with self.lock:
            since, self.failing_since = self.failing_since, None
            lost = self.failures - since + 1 if since is not None else 0
        if since is not None:
            log.warning("channel layer answers again; %d frame(s) were not sent", lost)


health = _Health()


def failures() -> int:
    """Group sends that failed since this process started."""
    return health.failures


@dataclass
class Outbox:
    """Sends collected on a worker thread, for the event loop to send (`collected`)."""

    messages: list[tuple[str, dict[str, Any], Delivery | None]] = field(default_factory=list)
    after: list[Callable[[], None]] = field(default_factory=list)  # once `messages` are sent

    async def send(self) -> None:
        for group, message, delivery in self.messages:
            sent = await asend_message(group, message)
            if delivery is not None:
                delivery.sent = sent
        self.messages.clear()


_local = threading.local()
Result = TypeVar("Result")


def collected(func: Callable[..., Result]
              ) -> Callable[..., tuple[Result | None, Outbox, BaseException | None]]:
    """`func`, run with its group sends collected: returns (its result, the outbox, the
    exception it raised). The caller sends the outbox, then raises the exception: what
    was committed before a refusal is still broadcast."""

    def run(*args: Any, **kwargs: Any) -> tuple[Result | None, Outbox, BaseException | None]:
        outbox, outer = Outbox(), getattr(_local, "outbox", None)
        _local.outbox = outbox
        try:
            return func(*args, **kwargs), outbox, None
        except Exception as error:
            return None, outbox, error
        finally:
            _local.outbox = outer

    return run


async def asend_message(group: str, message: dict[str, Any]) -> bool:
    """Send a channel-layer message to a group now, from the event loop; False (logged
    once per outage) if the layer refused it."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        await layer.group_send(group, message)
    except Exception as error:  # Redis down, a timeout: the caller's work is committed
        health.failed(group, error)
        return False
    health.succeeded()
    return True


def send_message(group: str, message: dict[str, Any], delivery: Delivery | None = None
                 ) -> bool | None:
    """Send a channel-layer message to a group now (False if the layer refused it), or,
    inside `collected`, add it to the outbox (None: `delivery` says later)."""
    outbox: Outbox | None = getattr(_local, "outbox", None)
    if outbox is not None:
        outbox.messages.append((group, message, delivery))
        return None
    return async_to_sync(asend_message)(group, message)


def send_frames(frames: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """Several frames to their groups now, in order, in one call to the event loop (or,
    inside `collected`, into the outbox). From a process without an event loop (a Celery
    worker) each `send_to_group` is a loop of its own, and channels-redis opens a Redis
    connection per loop: an arena pass's frames to its paired members and its page made
    that a tenth of the worker's time (docs/tournaments-arena.md, "The CPU profile")."""
    messages = frame_messages(frames)
    outbox: Outbox | None = getattr(_local, "outbox", None)
    if outbox is not None:
        outbox.messages.extend(messages)
    elif messages:
        async_to_sync(Outbox(list(messages)).send)()


def frame_messages(frames: Sequence[tuple[str, dict[str, Any]]]
                   ) -> list[tuple[str, dict[str, Any], Delivery | None]]:
    """Frames to their groups as an outbox's messages (each encoded once)."""
    return [(group, group_message(frame, group=group), None) for group, frame in frames]


async def asend_frames(frames: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """`send_frames` from the event loop: now, in order."""
    await Outbox(frame_messages(frames)).send()


def sent_together(func: Callable[..., Result]) -> Callable[..., Result]:
    """`func` for a process without an event loop (a Celery task): its sends collected and
    sent in one event loop (one Redis connection) when it returns, also when it raised
    after a commit, then what follows them (`after_sends`). Inside `collected` (a socket's
    service call, or a task run in-process by one) `func` runs as it is: that outbox sends
    its frames, in order."""

    def run(*args: Any, **kwargs: Any) -> Result:
        if getattr(_local, "outbox", None) is not None:
            return func(*args, **kwargs)
        result, outbox, error = collected(func)(*args, **kwargs)
        if outbox.messages:
            async_to_sync(outbox.send)()
        for callback in outbox.after:
            callback()
        if error is not None:
            raise error
        return result  # type: ignore[return-value]

    return run


def after_sends(callback: Callable[[], None]) -> None:
    """Run `callback` after the frames sent so far: now, or inside `collected` once the
    caller has sent its outbox (the caller runs `Outbox.after` off the event loop)."""
    outbox: Outbox | None = getattr(_local, "outbox", None)
    if outbox is None:
        callback()
    else:
        outbox.after.append(callback)


def send_to_group(group: str, frame: dict[str, Any], delivery: Delivery | None = None,
                  revision: int | None = None, turn: TurnMade | None = None) -> bool | None:
    """Send one frame to a group now (callers use `send_on_commit`)."""
    return send_message(group, group_message(frame, revision, turn, group), delivery)


def group_message(frame: dict[str, Any], revision: int | None = None,
                  turn: TurnMade | None = None, group: str | None = None) -> dict[str, Any]:
    """The channel-layer message of a frame: encoded once here, not once per receiving
    socket, with its ply beside the text, and for the receiving processes' warm copies
    (games.fast.turns.follow) `revision` (the game row's, after the change) and, for a turn,
    the `turn` that made it. `group` names the audience it was built for: a socket that
    has left that group since (its seat changed hands, games.sockets.game) drops a frame
    that was already on its way to it. Only `text` ever reaches a client."""
    text = encode(frame)
    state = frame.get("state") or {}
    ply = state.get("ply", len(state["turns"]) if "turns" in state else None)
    message = {"type": "frame.send", "text": text, "ply": ply}
    if group is not None:
        message["group"] = group
    if revision is not None:
        message["revision"] = revision
    if turn is not None:
        message["turn"] = list(turn)
    return message


def encode(frame: dict[str, Any]) -> str:
    """A broadcast frame as compact JSON text, encoded by orjson: what `json.dumps(frame,
    separators=(",", ":"))` writes, but for characters outside ASCII, which stay as they
    are (valid JSON either way); a turn's frame of 3.5 KB takes 5 µs instead of 36."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def send_on_commit(group: str, frame: dict[str, Any], revision: int | None = None,
                   turn: TurnMade | None = None) -> Delivery:
    delivery = Delivery()

    def send() -> None:
        sent = send_to_group(group, frame, delivery, revision, turn)
        if sent is not None:
            delivery.sent = sent

    transaction.on_commit(send)
    return delivery
