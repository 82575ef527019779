"""games.fast.loopdb: an event loop's own PostgreSQL connections, reused while they work, dropped
when they fail, closed with their loop, and no more at once than LIVE_LOOP_CONNECTIONS."""

import asyncio
from datetime import UTC, datetime

import psycopg
import pytest
from django.db import connection

from games.fast import loopdb

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.fast_path,
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


def test_a_statement_is_prepared_once_per_connection():
    mine = "SELECT 1 FROM pg_prepared_statements WHERE name LIKE 'cargo_loop_%%'"

    async def thrice():
        counts = [await loopdb.execute(mine, []) for _ in range(3)]
        return counts, loopdb._pool().idle[-1].prepared

    counts, prepared = in_a_new_loop(thrice)
    assert counts == [1, 1, 1] and len(prepared) == 1


def test_parameters_reach_postgresql_as_their_values():
    when = datetime(2026, 12, 2, 4, 5, 6, 789000, tzinfo=UTC)
    sql = ("SELECT 1 WHERE %s::integer = -42 AND %s::boolean AND NOT %s::boolean "
           "AND %s::timestamptz = '2026-12-02 04:05:06.789+00' AND %s::text IS NULL "
           "AND %s::text = 'cœur « B »' AND %s::jsonb = '[\"a1\", 2]'::jsonb")

    async def matching():
        return await loopdb.execute(sql, [-42, True, False, when, None, "cœur « B »",
                                          '["a1", 2]'])

    assert in_a_new_loop(matching) == 1


def test_a_value_without_a_text_form_is_refused_before_anything_is_sent():
    async def refused():
        with pytest.raises(TypeError, match="float"):
            await loopdb.execute("SELECT %s::numeric", [1.5])
        return loopdb._pool().idle

    assert in_a_new_loop(refused) == []


def test_a_connection_the_server_closed_while_idle_is_replaced():
    async def run():
        pid = await loopdb.execute("SELECT pg_backend_pid()", [])
        first = loopdb._pool().idle[-1]
        backend = first.pgconn.backend_pid
        with psycopg.connect(**connection.get_connection_params(), autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [backend])
        await asyncio.sleep(0.2)  # the connection's reader sees the socket close
        noticed = first.failure is not None
        assert await loopdb.execute(BACKEND, []) == 1
        return pid, noticed, first, loopdb._pool().idle

    pid, noticed, first, idle = in_a_new_loop(run)
    assert pid == 1 and noticed
    assert first.closed and idle and first not in idle
