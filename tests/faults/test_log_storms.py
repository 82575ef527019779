"""A Redis outage logs one line, not a traceback a second (cargosite/logs.py)."""

import logging

import pytest


@pytest.fixture
def installed_filters():
    """The ASGI app's log filters, installed as the server's process does (importing the
    app configures logging, so before `log_records` adds its handler)."""
    import cargosite.asgi  # noqa: F401


@pytest.mark.django_db
def test_the_pubsub_readers_traceback_storm_is_one_line(installed_filters, log_records):
    logger = logging.getLogger("channels_redis.pubsub")
    for _ in range(10):  # once a second during a 10 s outage
        try:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        except ConnectionError:
            logger.exception("Unexpected exception in receive task")
    mine = [r for r in log_records.records if r.name == "channels_redis.pubsub"]
    assert len(mine) == 1 and not mine[0].exc_info
    assert "ConnectionError" in mine[0].getMessage()
