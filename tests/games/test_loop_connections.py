"""games.loopdb: an event loop's own PostgreSQL connections, reused while they work, dropped
when they fail, closed with their loop, and no more at once than LIVE_LOOP_CONNECTIONS."""

import asyncio

import psycopg
import pytest
from django.db import connection

from games import loopdb

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="the loop's connections are PostgreSQL's"),
]

BACKEND = "SELECT 1 FROM pg_stat_activity WHERE pid = pg_backend_pid()"


def in_a_new_loop(coroutine_function):
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coroutine_function())
    finally:
        loop.close()


def pool_of_the_last_loop():
    return list(loopdb._pools.values())[-1]


@pytest.fixture(autouse=True)
def no_pools():
    loopdb.close_all()
    yield
    loopdb.close_all()


def test_a_loop_reuses_its_connection():
    async def twice():
        await loopdb.execute(BACKEND, [])
        first = loopdb._pool().idle[-1]
        await loopdb.execute(BACKEND, [])
        return first, loopdb._pool().idle

    first, idle = in_a_new_loop(twice)
    assert idle == [first] and not first.closed


def test_a_failed_statement_drops_its_connection():
    async def fail_then_succeed():
        with pytest.raises(psycopg.errors.UndefinedTable):
            await loopdb.execute("SELECT 1 FROM no_such_table", [])
        after_failure = list(loopdb._pool().idle)
        assert await loopdb.execute("SELECT 1 FROM pg_stat_activity LIMIT 1", []) == 1
        return after_failure

    assert in_a_new_loop(fail_then_succeed) == []


def test_the_connections_of_a_closed_loop_are_closed_when_another_loop_asks():
    in_a_new_loop(lambda: loopdb.execute(BACKEND, []))
    old = pool_of_the_last_loop()
    kept = list(old.idle)
    assert kept and not kept[0].closed
    in_a_new_loop(lambda: loopdb.execute(BACKEND, []))
    assert kept[0].closed and old not in loopdb._pools.values()


def test_close_all_closes_every_idle_connection():
    in_a_new_loop(lambda: loopdb.execute(BACKEND, []))
    kept = list(pool_of_the_last_loop().idle)
    loopdb.close_all()
    assert kept[0].closed and loopdb._pools == {}


def test_no_more_connections_at_once_than_the_setting(settings):
    settings.LIVE_LOOP_CONNECTIONS = 2

    async def five_at_once():
        await asyncio.gather(*(loopdb.execute("SELECT pg_sleep(0.05)", [])
                               for _ in range(5)))
        return len(loopdb._pool().idle)

    assert in_a_new_loop(five_at_once) == 2
