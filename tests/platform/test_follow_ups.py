"""A service call's follow-ups (games/sockets/runtime.py, `follow`): the caller does not
wait for them, and a test's tear-down waits for those running (`settle_follow_ups`)
before it empties the tables, so a game end's stats and achievements, written in one,
never meet the flush (docs/testing.md, "A race seen")."""

from __future__ import annotations

import asyncio
import threading

import pytest

from games.sockets import runtime

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_tear_down_waits_for_a_follow_up_still_running():
    began, release, ended = threading.Event(), threading.Event(), threading.Event()

    def slow_award() -> None:  # as a game end's achievements in AFTER_FRAMES
        began.set()
        release.wait(10)
        ended.set()

    async def a_call_that_returns() -> None:
        runtime.follow([slow_award])  # the caller goes on at once
        while not began.is_set():
            await asyncio.sleep(0.01)

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(a_call_that_returns())
        assert not runtime.settle_follow_ups(timeout=0.2)  # still writing: wait
        release.set()
        assert runtime.settle_follow_ups(timeout=10)
        assert ended.is_set()
        loop.run_until_complete(runtime.followed())
    finally:
        release.set()
        loop.close()
    assert runtime.settle_follow_ups(timeout=0)  # nothing left counted


def test_a_follow_up_dropped_before_it_began_is_not_waited_for():
    call = runtime._FollowUp()
    call.drop_unstarted()  # its task ended first (its loop closed): never begun
    assert not call.start()
    assert runtime.settle_follow_ups(timeout=0)
