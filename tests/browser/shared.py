"""One Playwright driver and one Chromium a test process, lent to each browser test in turn.

Starting Playwright's driver (a Node.js process) and Chromium for every test cost about
0.9 s of CPU a test on a 2-core machine, the driver alone 0.5 s; a fresh context in a
running Chromium costs 0.14 s (issue #43, session 33: docs/testing.md). So a test process
starts them once, the first time a test asks, and every test gets fresh contexts (their
own cookies, storage and cache) in the same Chromium; `lease()` closes the contexts a
test opened when it ends, and the pytest session's end stops both.

Playwright's synchronous API marks its event loop as running on the test's thread after
each call (it is suspended in a greenlet between calls, and runs only inside one). Django
refuses database calls while a loop runs on the thread (SynchronousOnlyOperation), and
`asyncio.run` refuses to start: with one driver kept for the whole process, every later
test, browser or not, would see a loop. So the mark is held only while a lease is: taken
back when the last lease ends (`asyncio._set_running_loop(None)`), put back when the next
begins, before its first Playwright call (the loop itself is untouched between them). A
test sees what it saw with a driver of its own: no loop before its browser opens and after
it closes; a loop in between (the test body's database work goes through
`dbwork.in_thread`, as before).

One more path marks the loop: a greenlet of Playwright's left suspended in a call (an event
or route handler's, when its context closed under it) runs that call's `finally` when the
garbage collector frees it, and the `finally` marks the loop, at any moment of any later
test. An earlier try at sharing the driver (session 26, docs/testing.md) lost a worker that
way, it is likely: a database call refused inside a transaction's exit left the connection
out of autocommit, and every test after it failed. So a greenlet trace takes the mark back
whenever control returns to the test's thread's own greenlet while no lease is held
(`_on_switch`; tests/browser/test_shared_browser_browser.py frees such a greenlet).

A Chromium that crashed, or a driver whose connection ended, is started again by the next
lease: one test's failure does not fail the ones after it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import greenlet
from playwright.sync_api import Browser, Playwright, sync_playwright


class _Shared:
    def __init__(self) -> None:
        self.manager: Any = None
        self.playwright: Playwright | None = None
        self.browser: Browser | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.home: greenlet.greenlet | None = None  # the test thread's own greenlet
        self.leases = 0

    def start(self, chromium_path: str) -> Browser:
        from tests.browser.conftest import CHROMIUM_ARGS

        if self.playwright is not None and self.manager._dispatcher_fiber.dead:
            # The driver went away: a new one, on a new loop (Playwright refuses to start
            # while a loop is marked running).
            self.mark_running(False)
            self.playwright = self.browser = self.manager = self.loop = None
        if self.playwright is None:
            self.home = greenlet.getcurrent()
            greenlet.settrace(self._on_switch)
            self.manager = sync_playwright()
            self.playwright = self.manager.start()
            self.loop = self.manager._loop
        if self.browser is None or not self.browser.is_connected():
            self.browser = self.playwright.chromium.launch(
                executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
        return self.browser

    def _on_switch(self, event: str, args: tuple[greenlet.greenlet, greenlet.greenlet]) -> None:
        if args[1] is self.home and self.leases == 0:
            asyncio._set_running_loop(None)  # type: ignore[attr-defined]

    def mark_running(self, running: bool) -> None:
        if self.loop is not None:
            asyncio._set_running_loop(self.loop if running else None)  # type: ignore[attr-defined]

    def stop(self) -> None:
        if self.playwright is None:
            return
        self.mark_running(True)
        try:
            if self.browser is not None and self.browser.is_connected():
                self.browser.close()
            self.playwright.stop()
        finally:
            self.playwright = self.browser = self.manager = self.loop = None
            asyncio._set_running_loop(None)  # type: ignore[attr-defined]


_shared = _Shared()


@contextmanager
def lease(chromium_path: str) -> Iterator[Browser]:
    """The process's Chromium for a block of Playwright calls; the contexts opened in the
    block are closed at its end. Leases nest (a `page` fixture and a test's own
    `screens.browser`)."""
    if _shared.leases == 0:
        _shared.mark_running(True)
    _shared.leases += 1
    try:
        browser = _shared.start(chromium_path)
        before = set(browser.contexts)
        try:
            yield browser
        finally:
            if browser.is_connected():
                for context in browser.contexts:
                    if context not in before:
                        context.close()
    finally:
        _shared.leases -= 1
        if _shared.leases == 0:
            _shared.mark_running(False)


def stop() -> None:
    """Stop the process's Chromium and driver (the pytest session's end)."""
    _shared.stop()
