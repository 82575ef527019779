"""Celery's "a join would block" flag under eager tasks in several threads, and the
autouse fixture that clears it for each test (tests/conftest.py; CI's stop 36 failed on it).
The two tests run in this order: the first leaves the flag set on purpose."""

import threading

from celery._state import task_join_will_block
from celery.result import denied_join_result


def overlap_two_eager_runs() -> None:
    """Two eager runs as two live-server threads make them: A starts, B starts, A ends,
    B ends (each run is what `apply_async` wraps an eager task in)."""
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

    def run_a() -> None:
        with denied_join_result():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def run_b() -> None:
        a_in.wait(5)
        with denied_join_result():
            b_in.set()
            a_out.wait(5)

    threads = [threading.Thread(target=run_a), threading.Thread(target=run_b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)


def test_overlapping_eager_runs_leave_the_flag_set():
    assert not task_join_will_block()
    overlap_two_eager_runs()
    assert task_join_will_block()  # one flag per process: B put back A's "set"


def test_the_next_test_starts_with_the_flag_clear():
    assert not task_join_will_block()
