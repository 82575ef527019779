"""The channel layer over Redis with several deployments' ASGI processes: channels_redis's
pub/sub layer, with its group sends pipelined and its subscription read without a timeout.

channels_redis 4.3's `RedisPubSubChannelLayer` publishes each group message under one
`asyncio.Lock` per Redis host, awaiting its reply before the next may go: every publish of
a process waits for the one before it, one round trip (and one turn of a busy event loop)
each. Here a process's group sends to one host are queued and sent by one task, all that
are waiting at once in one write (`PUBLISH`, `PUBLISH`, … then one read of each
reply): in order, as before, and each caller still learns whether its message went
(the turn's sender is acknowledged directly when the group did not get the frame,
games/frames/broadcast.py).

channels_redis reads its subscription with `get_message(timeout=0.1)`: a timeout context
entered and left for every message, and a wake-up every 0.1 s while nothing comes. Here
(`_Shard`) the read waits for the next message with no timeout, as redis-py's own
`listen()` does; a connection that fails is reconnected and resubscribed by redis-py's retry
as before, and the loop goes on after a failure as channels_redis's does.

It relies on channels_redis's per-loop layer (`_shards`, whose class it replaces by
`_Shard`, `_get_shard`, and the shard's `_ensure_redis`/`_redis`/`_pubsub`/
`_receive_message`) and writes directly on a connection it keeps from redis-py's pool;
requirements.txt pins the versions it was written against.

Part of the live fast path (games/fast/; docs/fast-path.md, "cargosite/channel_layer.py"),
here because the settings name it: channels_redis 4.3.0 and redis 8.1.0
(`games.fast.PINNED`, tested). Measured: pipelining alone, one run at 400 games, 398.6
turns/s, ack p95 192 ms, against 363.6–396.1 turns/s, p95 257–480 ms (2026-12-01
16:26–16:52 UTC); the direct write instead of redis-py's `Pipeline`, "about twice" cheaper
than the Pipeline's 7.9 % of the process (py-spy, 2026-12-02). With `LIVE_FAST_PATH=0` the
settings choose channels_redis's own `RedisPubSubChannelLayer`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
RETRY_SECONDS = 1.0  # between reads of a failed subscription


class _Publisher:
    """One host's queue of (channel, data, future), sent in pipelines by one task."""

    def __init__(self, shard: Any) -> None:
        self.shard = shard
        self.waiting: list[tuple[str, bytes, asyncio.Future[None]]] = []
        self.task: asyncio.Task[None] | None = None
        self.conn: Any = None  # the pool's connection this publisher keeps, and the pool
        self.pool: Any = None

    async def publish(self, channel: str, data: bytes) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append((channel, data, done))
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())
        await done

    async def run(self) -> None:
        while self.waiting:
            batch, self.waiting = self.waiting, []
            try:
                await self._send(batch)
            except Exception as error:  # Redis down: each caller counts its failure
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(error)
            else:
                for _, _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def _send(self, batch: list[tuple[str, bytes, asyncio.Future[None]]]) -> None:
        """Every `PUBLISH` of the batch written at once on the publisher's connection,
        then one reply read for each: redis-py's `Pipeline` did the same with more than
        twice the CPU (its instrumentation and command stack). The connection is taken
        from the shard's pool once and kept (taking and giving it back at every batch was
        a per-turn cost); one that fails is closed and given back, and one that Redis had
        closed meanwhile is found out by the send, which is made once more on a new
        connection (as redis-py's own retry would; a group message that arrived twice is
        one frame to a page, which keeps the last ply it drew)."""
        commands = [("PUBLISH", channel, data) for channel, data, _ in batch]
        try:
            await self._write(commands)
        except (RedisConnectionError, RedisTimeoutError):
            await self._write(commands)

    async def _write(self, commands: list[tuple[str, str, bytes]]) -> None:
        self.shard._ensure_redis()
        pool = self.shard._redis.connection_pool
        if self.conn is None or self.pool is not pool:  # none yet, or the layer's flushed
            self.conn, self.pool = await pool.get_connection(), pool
        conn = self.conn
        try:
            await conn.send_packed_command(conn.pack_commands(commands), check_health=False)
            for _ in commands:
                await conn.read_response()
        except BaseException:
            self.conn = None
            await conn.disconnect()
            await pool.release(conn)
            raise


class _Outage:
    """One subscription loop's log while Redis does not answer (issue #28, point 5): the
    first failure as one line without the traceback, then at most one line a minute with
    the count since, and one line when it reads again. A traceback a second per process
    was what an outage logged before."""

    EVERY = 60.0

    def __init__(self) -> None:
        self.since: float | None = None
        self.last = float("-inf")
        self.quiet = 0

    def failed(self, error: BaseException) -> None:
        now = time.monotonic()
        if self.since is None:
            self.since = now
        if now - self.last < self.EVERY:
            self.quiet += 1
            return
        quiet, self.quiet, self.last = self.quiet, 0, now
        log.warning("the channel layer's subscription failed (%s: %s); reading again "
                    "every %.0f s%s", type(error).__name__, error, RETRY_SECONDS,
                    f" ({quiet} more failures since the last line)" if quiet else "")

    def read(self) -> None:
        if self.since is not None:
            log.warning("the channel layer's subscription reads again after %.0f s",
                        time.monotonic() - self.since)
            self.since, self.last, self.quiet = None, float("-inf"), 0


class _Shard(RedisSingleShardConnection):
    """channels_redis's connection to one host, reading its subscription without a
    timeout (the module's docstring), and logging an outage as `_Outage` does."""

    async def _do_receiving(self) -> None:
        outage = _Outage()
        while True:
            try:
                pubsub = self._pubsub
                if pubsub is not None and pubsub.subscribed:
                    message = await pubsub.get_message(ignore_subscribe_messages=True,
                                                       timeout=None)
                    outage.read()
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except Exception as error:  # not cancelling (a BaseException): as channels_redis
                outage.failed(error)
                await asyncio.sleep(RETRY_SECONDS)


class PipelinedPubSubChannelLayer(RedisPubSubChannelLayer):
    """`RedisPubSubChannelLayer` whose `group_send` goes through a `_Publisher` per host
    and whose hosts' connections are `_Shard`s, both kept on channels_redis's per-loop
    layer (which it drops when its loop closes); everything else is channels_redis's."""

    def _get_layer(self) -> Any:
        layer = super()._get_layer()
        if "cargo_publishers" not in layer.__dict__:  # new: made by this call
            layer.cargo_publishers = {}
            for shard in layer._shards:
                shard.__class__ = _Shard
        return layer

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        layer = self._get_layer()
        channel = layer._get_group_channel_name(group)
        shard = layer._get_shard(channel)
        publishers: dict[int, _Publisher] = layer.cargo_publishers
        publisher = publishers.get(id(shard))
        if publisher is None or publisher.shard is not shard:
            publisher = publishers[id(shard)] = _Publisher(shard)
        await publisher.publish(channel, self.serialize(message))
