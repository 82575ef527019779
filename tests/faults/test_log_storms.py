"""A Redis outage logs one line, then one a minute, not a traceback a second
(cargosite/channel_layer.py's subscription loop, cargosite/logs.py; issue #28, point 5)."""

import asyncio
import logging

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError


@pytest.fixture
def installed_filters():
    """The ASGI app's log filters, installed as the server's process does (importing the
    app configures logging, so before `log_records` adds its handler)."""
    import cargosite.asgi  # noqa: F401


@pytest.mark.django_db
def test_channels_redis_cleanup_storm_is_one_line(installed_filters, log_records):
    logger = logging.getLogger("channels_redis.pubsub")
    for _ in range(10):  # a socket closing while Redis is down, many times
        try:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        except ConnectionError:
            logger.exception("Unexpected exception while cleaning-up channel")
    mine = [r for r in log_records.records if r.name == "channels_redis.pubsub"]
    assert len(mine) == 1 and not mine[0].exc_info
    assert "ConnectionError" in mine[0].getMessage()


class DownPubSub:
    """A subscription whose reads fail while `down`, then return one message."""

    subscribed = True

    def __init__(self, failures: int) -> None:
        self.failures = failures

    async def get_message(self, **kwargs):
        if self.failures:
            self.failures -= 1
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Refused.")
        await asyncio.sleep(3600)


@pytest.mark.asyncio
async def test_the_subscription_loop_logs_an_outage_in_a_few_lines(monkeypatch, log_records):
    """The probe: 22 tracebacks a process in an 11.5 s outage. Now: one line at the start,
    one a minute while it lasts (the clock is moved 1 s a failure), one when it reads."""
    from cargosite import channel_layer

    clock = [1000.0]

    async def sleep(seconds):
        clock[0] += 1.0
        await asyncio.sleep(0)

    monkeypatch.setattr(channel_layer.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(channel_layer, "asyncio", type("A", (), {"sleep": staticmethod(sleep)}))
    shard = object.__new__(channel_layer._Shard)
    shard._pubsub = DownPubSub(failures=130)  # 130 s of outage
    received = []
    shard._receive_message = received.append
    task = asyncio.ensure_future(shard._do_receiving())
    for _ in range(2000):
        await asyncio.sleep(0)
        if not shard._pubsub.failures:
            break
    await asyncio.sleep(0)
    task.cancel()
    mine = [r for r in log_records.records if r.name == "cargosite.channel_layer"]
    assert not [r for r in mine if r.exc_info]
    lines = [r.getMessage() for r in mine]
    assert len(lines) == 3, lines  # at 0 s, at 60 s, at 120 s
    assert "more failures since the last line" in lines[1]
