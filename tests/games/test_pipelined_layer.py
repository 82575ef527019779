"""The channel layer's group sends, pipelined (cargosite/channel_layer.py): many sends at
once reach a group in the order they were made, in few writes; each caller learns that its
message went; a connection Redis closed is replaced; and with Redis gone every caller gets
the error (games.frames.broadcast counts it). The subscription, read without a timeout, is
resubscribed when Redis closes it and follows a group that empties and fills again."""

import asyncio
import os
import uuid

import pytest

from cargosite.channel_layer import PipelinedPubSubChannelLayer

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                reason="REDIS_URL not set: the layer is Redis's")


# This test's own connections are named, so that it closes only those: the suite's other
# workers share the Redis server, and a `CLIENT KILL TYPE normal` closed their connections
# too (a frame lost in a parallel run with LIVE_FAST_PATH=0, whose layer does not resend).
CLIENT_NAME = f"cargo-test-pipeline-{uuid.uuid4().hex[:12]}"


def layer(url: str) -> PipelinedPubSubChannelLayer:
    return PipelinedPubSubChannelLayer(hosts=[{"address": url, "client_name": CLIENT_NAME}],
                                       prefix="cargo-test-pipeline")


async def kill_own(killer, subscribers: bool) -> int:
    """Close this test's connections on Redis: its subscriptions (`subscribers`) or the
    others; how many were closed."""
    listing = (await killer.execute_command("CLIENT", "LIST")).decode()
    ids = []
    for line in listing.splitlines():
        fields = dict(field.split("=", 1) for field in line.split(" ") if "=" in field)
        if fields.get("name") == CLIENT_NAME and ("P" in fields["flags"]) == subscribers:
            ids.append(fields["id"])
    for client_id in ids:
        await killer.execute_command("CLIENT", "KILL", "ID", client_id)
    return len(ids)


async def subscribed() -> tuple[PipelinedPubSubChannelLayer, PipelinedPubSubChannelLayer, str]:
    """A sending layer, a receiving one, and a channel of the receiver's in group "g",
    its subscription on Redis."""
    sender, receiver = layer(os.environ["REDIS_URL"]), layer(os.environ["REDIS_URL"])
    channel = await receiver.new_channel()
    await receiver.group_add("g", channel)
    await asyncio.sleep(0.2)
    return sender, receiver, channel


def test_sends_made_at_once_arrive_in_order_in_few_round_trips():
    async def run():
        sender, receiver, channel = await subscribed()
        shard = sender._get_layer()._get_shard(
            sender._get_layer()._get_group_channel_name("g"))
        shard._ensure_redis()
        pool = shard._redis.connection_pool
        writes = []
        original = pool.get_connection

        async def counted(*args, **kwargs):
            conn = await original(*args, **kwargs)
            send = conn.send_packed_command

            async def write(command, check_health=True):
                writes.append(sum(chunk.count(b"PUBLISH") for chunk in command))
                return await send(command, check_health)

            conn.send_packed_command = write
            return conn

        pool.get_connection = counted
        await asyncio.gather(*(sender.group_send("g", {"type": "x", "n": n})
                               for n in range(50)))
        got = [(await asyncio.wait_for(receiver.receive(channel), 5))["n"]
               for _ in range(50)]
        await sender.flush()
        await receiver.flush()
        return got, writes

    got, writes = asyncio.run(run())
    assert got == list(range(50))
    # the sends waiting together went in few writes, every PUBLISH in one of them
    assert len(writes) < 50 and sum(writes) == 50


def test_a_connection_redis_closed_is_replaced_at_the_next_send():
    async def run():
        import redis.asyncio

        sender, receiver, channel = await subscribed()
        await sender.group_send("g", {"type": "x", "n": 1})
        killer = redis.asyncio.Redis.from_url(os.environ["REDIS_URL"])
        killed = await kill_own(killer, subscribers=False)
        await killer.aclose()
        await sender.group_send("g", {"type": "x", "n": 2})
        got = [(await asyncio.wait_for(receiver.receive(channel), 5))["n"] for _ in range(2)]
        await sender.flush()
        await receiver.flush()
        return killed, got

    killed, got = asyncio.run(run())
    assert killed >= 1 and got == [1, 2]


def test_with_redis_gone_every_sender_gets_the_error():
    async def run():
        gone = layer("redis://127.0.0.1:1/0")  # nothing listens there
        results = await asyncio.gather(*(gone.group_send("g", {"type": "x", "n": n})
                                         for n in range(3)), return_exceptions=True)
        await gone.flush()
        return results

    results = asyncio.run(run())
    assert len(results) == 3 and all(isinstance(r, Exception) for r in results)


def test_the_subscription_is_read_again_after_redis_closes_it():
    async def run():
        import redis.asyncio

        sender, receiver, channel = await subscribed()
        await sender.group_send("g", {"type": "x", "n": 1})
        first = (await asyncio.wait_for(receiver.receive(channel), 5))["n"]
        killer = redis.asyncio.Redis.from_url(os.environ["REDIS_URL"])
        killed = await kill_own(killer, subscribers=True)
        await asyncio.sleep(0.5)  # reconnected and subscribed again by redis-py's retry
        subscribers = await killer.execute_command(
            "PUBSUB", "NUMSUB", receiver._get_layer()._get_group_channel_name("g"))
        await killer.aclose()
        await sender.group_send("g", {"type": "x", "n": 2})
        second = (await asyncio.wait_for(receiver.receive(channel), 5))["n"]
        await sender.flush()
        await receiver.flush()
        return killed, first, subscribers[1], second

    killed, first, subscribers, second = asyncio.run(run())
    assert killed >= 1 and (first, subscribers, second) == (1, 1, 2)


def test_a_layer_subscribed_to_nothing_reads_again_once_subscribed():
    async def run():
        sender, receiver = layer(os.environ["REDIS_URL"]), layer(os.environ["REDIS_URL"])
        one = await receiver.new_channel()
        await receiver.group_add("g", one)
        await asyncio.sleep(0.2)
        await receiver.group_discard("g", one)  # its last member: unsubscribed from Redis
        shard = receiver._get_layer()._shards[0]
        await shard.unsubscribe(one)
        await asyncio.sleep(0.3)
        idle = shard._pubsub.subscribed
        two = await receiver.new_channel()
        await receiver.group_add("g", two)
        await asyncio.sleep(0.3)
        await sender.group_send("g", {"type": "x", "n": 3})
        got = (await asyncio.wait_for(receiver.receive(two), 5))["n"]
        await sender.flush()
        await receiver.flush()
        return idle, got

    idle, got = asyncio.run(run())
    assert (idle, got) == (False, 3)


def test_a_flushed_layer_publishes_again_on_a_new_connection():
    async def run():
        sender, receiver, channel = await subscribed()
        await sender.group_send("g", {"type": "x", "n": 1})
        await sender.flush()  # closes the layer's pool, the publisher's connection with it
        await sender.group_send("g", {"type": "x", "n": 2})
        got = [(await asyncio.wait_for(receiver.receive(channel), 5))["n"] for _ in range(2)]
        await sender.flush()
        await receiver.flush()
        return got

    assert asyncio.run(run()) == [1, 2]
