"""Two deployments on one Redis do not hear each other's channel layer (issue #28, point 9):
pub/sub ignores the database number, so each layer's prefix follows its REDIS_URL's
database (settings.CHANNEL_LAYER_PREFIX). Needs a Redis at 127.0.0.1:6379 (uses /7 and
/8); skipped without one."""

import asyncio
import socket

import pytest

from cargosite.channel_layer import PipelinedPubSubChannelLayer
from cargosite.settings import redis_db


def redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5):
            return True
    except OSError:
        return False


def layer_for(url: str) -> PipelinedPubSubChannelLayer:
    return PipelinedPubSubChannelLayer(hosts=[url], prefix=f"cargo{redis_db(url)}")


@pytest.mark.asyncio
@pytest.mark.skipif(not redis_up(), reason="no Redis at 127.0.0.1:6379")
async def test_a_layer_on_another_database_does_not_receive_the_sites_messages():
    site, other = layer_for("redis://127.0.0.1:6379/7"), layer_for("redis://127.0.0.1:6379/8")
    try:
        mine = await site.new_channel()
        theirs = await other.new_channel()
        await site.group_add("game-1", mine)
        await other.group_add("game-1", theirs)
        await asyncio.sleep(0.2)  # the subscriptions reach Redis
        await site.group_send("game-1", {"type": "turn", "n": 1})
        assert (await asyncio.wait_for(site.receive(mine), 2))["n"] == 1
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(other.receive(theirs), 0.5)
    finally:
        await site.flush()
        await other.flush()
