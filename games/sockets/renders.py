"""Renders that follow a commit, in an ASGI process, on a thread of their own.

A page's shared section that many sockets hear (an arena's standings: tournaments/live.py)
is rendered once for them all after a change commits. Rendered on a live-db thread, as a
call that follows the change's frames (`runtime.follow`), it waited behind the queue of
other games' calls for a thread: in the 200-player arena that queue held a median of 12
calls, and the render's start waited p50 322 ms / p95 1.8 s (docs/tournaments-arena.md,
"Session 31"); sent to the Celery worker instead, it waited p50 41 ms / p95 352 ms for a
free child, behind the pairing passes.

`run_soon(render, delay)` runs `render` (a function returning frames: (group, frame)
pairs) on this process's one render thread, after `delay` seconds, and sends its frames
from the event loop, as a socket's call does (`broadcast.Outbox`): one thread, so renders
never queue behind turns and never run two at once. It works only in a process whose
event loop a socket's call has recorded (`loop_is`: the ASGI processes); elsewhere (a
Celery worker, a management command) it returns False and the caller sends a task. A
render pending when its process stops is lost: callers use it for what the next change,
or a page's next connect, renders again anyway.

The thread's database connection is looked after as Django does around a request
(`close_old_connections` before and after each render: closed when too old or broken,
and, with the connection pool, where the age is 0, given back after every render);
`close()` closes it on its own thread, for a test session's end.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.db import close_old_connections, connections

from games.frames import broadcast

log = logging.getLogger(__name__)

Frames = Sequence[tuple[str, dict[str, Any]]]
Render = Callable[[], Frames]

_loop: asyncio.AbstractEventLoop | None = None
_executor: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def loop_is(loop: asyncio.AbstractEventLoop) -> None:
    """Record this process's event loop (from a call running on it)."""
    global _loop
    _loop = loop


def _thread() -> ThreadPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(1, thread_name_prefix="renders")
        return _executor


def run_soon(render: Render, delay: float = 0.0) -> bool:
    """From any thread of this process: `render` on the render thread in `delay` seconds,
    its frames sent from the event loop; False (nothing done) without a running loop."""
    loop = _loop
    if loop is None or loop.is_closed() or not loop.is_running():
        return False
    try:
        loop.call_soon_threadsafe(_schedule, loop, render, max(0.0, delay))
    except RuntimeError:  # the loop closed meanwhile
        return False
    return True


def _schedule(loop: asyncio.AbstractEventLoop, render: Render, delay: float) -> None:
    if delay:
        loop.call_later(delay, _start, loop, render)
    else:
        _start(loop, render)


_running: set[asyncio.Task[Any]] = set()  # held until done: the loop keeps weak references


def _start(loop: asyncio.AbstractEventLoop, render: Render) -> None:
    task = loop.create_task(_render_and_send(loop, render))
    _running.add(task)
    task.add_done_callback(_running.discard)


async def _render_and_send(loop: asyncio.AbstractEventLoop, render: Render) -> None:
    try:
        frames = await loop.run_in_executor(_thread(), _rendered, render)
        await broadcast.asend_frames(frames)
    except Exception:  # nothing waits for it: say so here
        log.exception("a render after a commit failed")


def _rendered(render: Render) -> Frames:
    close_old_connections()
    try:
        return render()
    finally:
        close_old_connections()


async def settled() -> None:
    """Wait for the renders started so far (for tests)."""
    while _running:
        await asyncio.gather(*list(_running), return_exceptions=True)


def close(timeout: float = 10.0) -> None:
    """Close the render thread's database connection on that thread, and the thread (the
    next `run_soon` makes a new one)."""
    global _executor
    with _lock:
        executor, _executor = _executor, None
    if executor is None:
        return
    try:
        executor.submit(connections.close_all).result(timeout)
    finally:
        executor.shutdown(wait=True)
