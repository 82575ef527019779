"""Tasks sent by name (common/queue.py) are found from any thread of a site process: the
Celery app of cargosite/celery.py is the default in every thread. Celery makes a new app
current only in the thread that made it, and its Django fix-up makes it the default only if
nothing made a default app before: a process that touched `celery.current_app` before
loading cargosite.celery had Celery's bare default app in its other threads, with no task
(`NotRegistered: 'games.bot_turn'` in a site process of the fault trials)."""

import os
import subprocess
import sys
import threading
from pathlib import Path

from celery import current_app

from cargosite.celery import app
from common import queue

ROOT = Path(__file__).resolve().parents[2]

TOUCHED_FIRST = """
import threading
import celery
celery.current_app.conf  # a library touching Celery's current app before the site's loads
import django
django.setup()
from common import queue
found = {}
thread = threading.Thread(target=lambda: found.update(name=queue.task("games.bot_turn").name))
thread.start()
thread.join()
print(found.get("name"))
"""


def in_a_new_thread(work):
    found: dict = {}

    def run() -> None:
        try:
            found["value"] = work()
        except Exception as error:  # reported to the test below
            found["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    assert "error" not in found, found.get("error")
    return found["value"]


def test_a_new_thread_sees_the_sites_app_with_its_settings():
    assert in_a_new_thread(lambda: current_app._get_current_object()) is app


def test_a_new_thread_finds_every_task_by_its_name():
    for name in ("games.bot_turn", "games.review_game", "puzzles.prove"):
        found = in_a_new_thread(lambda name=name: queue.task(name))
        assert found.name == name
        assert found.app is app


def test_a_process_that_touched_celery_first_still_finds_the_tasks_in_other_threads():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "cargosite.settings"}
    env.pop("REDIS_URL", None)  # the embedded default: no broker needed to find a task
    env.pop("DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-c", TOUCHED_FIRST], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "games.bot_turn", done.stderr[-2000:]


AT_ONCE = """
import threading
import django
django.setup()
from common import queue
names = ("games.bot_turn", "games.flag_clock", "puzzles.prove", "games.review_game") * 4
start = threading.Barrier(len(names))
found, failed = [], []


def send(name):
    start.wait()
    try:
        found.append(queue.task(name).name)
    except Exception as error:
        failed.append(repr(error))


threads = [threading.Thread(target=send, args=(name,)) for name in names]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(found), failed)
"""


def test_threads_that_send_their_first_tasks_at_once_all_find_them():
    """A site process's first bot turns come from several sockets' threads at once. Celery's
    task discovery lets one caller in at a time and returns nothing to the others
    (`celery.loaders.base.autodiscover_tasks`, `_RACE_PROTECTION`): those found no task
    (`NotRegistered: 'games.bot_turn'` in the fault trials). The discovery is now one
    thread's at a time (common/queue.py)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "cargosite.settings"}
    env.pop("REDIS_URL", None)
    env.pop("DATABASE_URL", None)
    for _ in range(3):  # a race: three fresh processes
        done = subprocess.run([sys.executable, "-c", AT_ONCE], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.strip().splitlines()[-1] == "16 []", done.stdout[-2000:]
