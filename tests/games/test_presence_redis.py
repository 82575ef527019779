"""The presence store in Redis is what several ASGI processes share: two stores (as two
processes would have) see one count. Runs when REDIS_URL is set (CI sets it)."""

import os

import pytest

from games.frames import presence

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                reason="needs REDIS_URL (a Redis server)")


@pytest.fixture
def two_processes():
    first = presence.RedisStore(os.environ["REDIS_URL"])
    second = presence.RedisStore(os.environ["REDIS_URL"])
    first.clear()
    yield first, second
    first.clear()
    presence.reset(presence.MemoryStore())


def test_two_processes_add_up_to_one_count(two_processes):
    first, second = two_processes
    presence.reset(first)
    presence.watch("game-x", "socket-in-first")
    presence.reset(second)
    assert presence.watch("game-x", "socket-in-second") == 2
    presence.reset(first)
    assert presence.spectators("game-x") == 2
    assert presence.unwatch("game-x", "socket-in-first") == 1


def test_members_seen_by_either_process_are_online(two_processes):
    first, second = two_processes
    presence.reset(first)
    presence.seen(7)
    presence.reset(second)
    presence.seen(9)
    assert sorted(presence.online_ids()) == [7, 9]
    assert presence.online_count() == 2
