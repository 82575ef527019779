"""Celery tasks sent by their registered name (`enqueue`): a module never imports the task
module above it only to send a task, so the services below the tasks import one way
(issue #44). With CELERY_TASK_ALWAYS_EAGER (the embedded default) the task still runs
in-process as `apply_async` would run it: the registry is filled by importing every app's
tasks module once (Celery's own autodiscovery, one thread at a time: see `_discovering`),
which `send_task` would not do. The site's app is the default in every thread
(cargosite/celery.py, `app.set_default()`): a process that touched Celery's current app
before loading it found, in its other threads, Celery's bare default app with no task."""

from __future__ import annotations

import threading
from typing import Any

from celery import Task, current_app

# Celery's discovery of the apps' tasks modules lets one caller in at a time and returns
# nothing to the others (`celery.loaders.base.autodiscover_tasks`, `_RACE_PROTECTION`): a
# site process whose sockets' threads sent their first tasks at once found no task in all
# but one (`NotRegistered: 'games.bot_turn'` in the fault trials). One thread discovers;
# the others wait for it (tests/platform/test_task_queue.py).
_discovering = threading.Lock()


def task(name: str) -> Task:
    """The task registered as `name`, on the process's Celery app (cargosite.celery's,
    made when the cargosite package loads and the default in every thread)."""
    if name not in current_app.tasks:
        with _discovering:
            if name not in current_app.tasks:
                current_app.loader.import_default_modules()
    return current_app.tasks[name]


def enqueue(name: str, *args: Any, **options: Any) -> None:
    """Send the task registered as `name` with `args` (and `apply_async`'s options)."""
    task(name).apply_async(args, **options)


def eager() -> bool:
    """Do tasks run in this process when sent (CELERY_TASK_ALWAYS_EAGER: no worker)?"""
    return bool(current_app.conf.task_always_eager)
