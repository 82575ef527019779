"""Database work from a browser test: Playwright's synchronous API runs an event loop on
the test's thread, where Django refuses database calls (SynchronousOnlyOperation), so
the work runs on a thread of its own (`in_thread`) and the test waits for it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


def in_thread(func: Callable[..., Any], *args: Any, timeout: float = 60) -> Any:
    """`func(*args)` on another thread; its result, or its exception raised here."""
    out: list = []
    failed: list = []

    def run() -> None:
        try:
            out.append(func(*args))
        except BaseException as error:  # noqa: BLE001  (re-raised on the test's thread)
            failed.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout)
    if failed:
        raise failed[0]
    if worker.is_alive():
        raise TimeoutError(f"{getattr(func, '__name__', func)} still running after {timeout} s")
    return out[0]
