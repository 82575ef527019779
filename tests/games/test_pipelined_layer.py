"""The channel layer's group sends, pipelined (cargosite/channel_layer.py): many sends at
once reach a group in the order they were made, each caller learns that its message went,
and with Redis gone every caller gets the error (games.broadcast counts it)."""

import asyncio
import os

import pytest

from cargosite.channel_layer import PipelinedPubSubChannelLayer

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                reason="REDIS_URL not set: the layer is Redis's")


def layer(url: str) -> PipelinedPubSubChannelLayer:
    return PipelinedPubSubChannelLayer(hosts=[url], prefix="cargo-test-pipeline")


def test_sends_made_at_once_arrive_in_order_in_few_round_trips():
    async def run():
        sender, receiver = layer(os.environ["REDIS_URL"]), layer(os.environ["REDIS_URL"])
        channel = await receiver.new_channel()
        await receiver.group_add("g", channel)
        await asyncio.sleep(0.2)  # the subscription is on Redis
        shard = sender._get_layer()._get_shard(
            sender._get_layer()._get_group_channel_name("g"))
        shard._ensure_redis()
        pipelines = []
        original = shard._redis.pipeline

        def counted(*args, **kwargs):
            pipelines.append(1)
            return original(*args, **kwargs)

        shard._redis.pipeline = counted
        await asyncio.gather(*(sender.group_send("g", {"type": "x", "n": n})
                               for n in range(50)))
        got = [(await asyncio.wait_for(receiver.receive(channel), 5))["n"]
               for _ in range(50)]
        await sender.flush()
        await receiver.flush()
        return got, len(pipelines)

    got, round_trips = asyncio.run(run())
    assert got == list(range(50))
    assert round_trips < 50  # the sends waiting together went in one pipeline


def test_with_redis_gone_every_sender_gets_the_error():
    async def run():
        gone = layer("redis://127.0.0.1:1/0")  # nothing listens there
        results = await asyncio.gather(*(gone.group_send("g", {"type": "x", "n": n})
                                         for n in range(3)), return_exceptions=True)
        await gone.flush()
        return results

    results = asyncio.run(run())
    assert len(results) == 3 and all(isinstance(r, Exception) for r in results)
