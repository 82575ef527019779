"""Two callers at once, as two beat processes' ticks: each on its own thread and database
connection, released together by a barrier."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections


def twice_at_once(call: Callable[[], object]) -> list[object]:
    """What `call` returned (or raised) on each of two threads started together."""
    barrier = threading.Barrier(2)
    answers: list[object] = []

    def one() -> None:
        try:
            barrier.wait()
            answers.append(call())
        except Exception as e:  # pragma: no cover - shown by the caller's assertion
            answers.append(e)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers
