"""With DATABASE_URL and REDIS_URL set (as in CI), the suite runs on PostgreSQL and
the Redis pub/sub channel layer; without them these tests say why they are skipped."""

import os
import uuid

import pytest
from channels.layers import get_channel_layer
from django.db import connection


@pytest.mark.django_db
def test_it_runs_on_the_configured_database():
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"
    assert connection.vendor == expected


@pytest.mark.django_db
@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="DATABASE_URL not set")
def test_it_talks_to_postgresql():
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    print(f"database: {version}")
    assert version.startswith("PostgreSQL")


@pytest.mark.asyncio
@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL not set")
async def test_it_sends_and_receives_through_the_redis_channel_layer():
    layer = get_channel_layer()
    from channels_redis.pubsub import RedisPubSubChannelLayer

    # channels_redis's pub/sub layer, its group sends pipelined (cargosite/channel_layer.py)
    # with the live fast path on; channels_redis's own with LIVE_FAST_PATH=0
    from django.conf import settings

    from cargosite.channel_layer import PipelinedPubSubChannelLayer

    assert isinstance(layer, PipelinedPubSubChannelLayer) == settings.LIVE_FAST_PATH
    assert isinstance(layer, RedisPubSubChannelLayer)
    channel = await layer.new_channel("test.")
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "test.message", "token": token})
    assert (await layer.receive(channel))["token"] == token
    group = f"test-{token}"
    await layer.group_add(group, channel)
    await layer.group_send(group, {"type": "test.group", "token": token})
    assert (await layer.receive(channel))["type"] == "test.group"
    await layer.group_discard(group, channel)
