"""The periodic tasks in the embedded default (issue #42, point 19).

With `REDIS_URL` a Celery worker runs them (`make worker`: `celery -A cargosite worker -B`,
beat inside the worker). Without it (the embedded default, `make run`) there is no worker
and no beat: Celery's tasks run in-process when sent (CELERY_TASK_ALWAYS_EAGER), but
nothing sent the periodic ones, so the daily email digest, the deadline alarms, the idle
and Daily Challenge sweeps and the Weekly Puzzles' week never happened in development.

`EmbeddedBeat` wraps the ASGI application (cargosite/asgi.py) and, when `EMBEDDED_BEAT` is on
(by default exactly when `REDIS_URL` is unset), runs `CELERY_BEAT_SCHEDULE` inside the
serving process: started by the server's lifespan startup, stopped by its shutdown. Every
entry runs once at startup (so a developer sees the digest without waiting an hour), then
on its own schedule (seconds or a crontab), one task at a time, each in a worker thread
through `sync_to_async` (the ORM; a task's channel-layer sends reach the process's
in-memory layer on the server's event loop, where its sockets are). A task that fails is
logged and tried again at its next time; the loop goes on. A server that does not speak
the lifespan protocol never starts it: `cargosite/serve.py` (production) and the browser
tests' server turn lifespan off. It is one process's scheduler: with several processes,
use `REDIS_URL` and a worker with beat.
"""

from __future__ import annotations

import asyncio
import copy
import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from celery.schedules import BaseSchedule
from celery.schedules import schedule as every
from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)

MAX_SLEEP = 30.0  # seconds between looks at the schedule, at most


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass
class Entry:
    """One line of CELERY_BEAT_SCHEDULE and when it last ran."""

    name: str
    task: str
    schedule: BaseSchedule
    last_run: dt.datetime | None = None

    def due(self) -> tuple[bool, float]:
        """Whether it is due now, and in how many seconds to look again."""
        if self.last_run is None:
            return True, 0.0
        is_due, wait = self.schedule.is_due(self.last_run)
        return bool(is_due), float(wait)


def entries(clock: Callable[[], dt.datetime] = utcnow) -> list[Entry]:
    """CELERY_BEAT_SCHEDULE's entries, their schedules reading `clock`."""
    from cargosite.celery import app

    app.loader.import_default_modules()  # the apps' tasks modules (autodiscover_tasks)
    found = []
    for name, spec in settings.CELERY_BEAT_SCHEDULE.items():
        when = spec["schedule"]
        if isinstance(when, (int, float)):
            when = dt.timedelta(seconds=when)
        if isinstance(when, dt.timedelta):
            schedule: BaseSchedule = every(when, app=app)
        elif isinstance(when, BaseSchedule):
            schedule = copy.copy(when)
            schedule.app = app
        else:
            raise TypeError(f"CELERY_BEAT_SCHEDULE[{name!r}]: a schedule of seconds, a "
                            f"timedelta or a Celery schedule, not {when!r}")
        schedule.nowfun = clock  # type: ignore[attr-defined]
        found.append(Entry(name, spec["task"], schedule))
    return found


def run_task(task: str) -> bool:
    """Run one task here and now (in the calling thread); False if it failed (logged)."""
    from cargosite.celery import app

    close_old_connections()
    try:
        app.tasks[task]()  # the task's body, as a worker runs it, without a line per run
    except Exception:
        log.exception("periodic task %s failed; it runs again at its next time", task)
        return False
    finally:
        close_old_connections()
    return True


class Beat:
    """The schedule and its runs; `tick` runs what is due (used by the loop and tests)."""

    def __init__(self, clock: Callable[[], dt.datetime] = utcnow,
                 runner: Callable[[str], bool] = run_task) -> None:
        self.clock = clock
        self.runner = runner
        self.entries = entries(clock)

    async def tick(self) -> float:
        """Run every entry that is due, one after another; seconds until the next look."""
        wait = MAX_SLEEP
        for entry in self.entries:
            is_due, next_in = entry.due()
            if is_due:
                entry.last_run = self.clock()
                await sync_to_async(self.runner, thread_sensitive=False)(entry.task)
                is_due, next_in = entry.due()
            wait = min(wait, max(next_in, 0.5))
        return wait

    async def run_forever(self) -> None:
        names = ", ".join(entry.name for entry in self.entries)
        log.info("periodic tasks run in this process (EMBEDDED_BEAT): %s", names)
        while True:
            await asyncio.sleep(await self.tick())


class EmbeddedBeat:
    """ASGI middleware: answers the lifespan protocol and, with EMBEDDED_BEAT on, runs
    the periodic tasks between startup and shutdown; every other scope goes to `app`."""

    def __init__(self, app: Any, beat: Callable[[], Beat] = Beat) -> None:
        self.app = app
        self.beat = beat
        self.task: asyncio.Task | None = None

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if settings.EMBEDDED_BEAT:
                    self.task = asyncio.create_task(self.beat().run_forever())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if self.task is not None:
                    self.task.cancel()
                    try:
                        await self.task
                    except asyncio.CancelledError:
                        pass
                    self.task = None
                await send({"type": "lifespan.shutdown.complete"})
                return
