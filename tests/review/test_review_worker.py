"""A review made by a real Celery worker, as in production: `celery -A cargosite worker` in
its own process, on the Redis broker and the test database. The Review button sends the
task; the worker reviews the game, writing its progress, and the page shows the finished
review. One run at a time per game: pressing Review again while the worker runs sends no
second task, and a duplicated task that reaches the worker meanwhile does nothing ("busy").

Without REDIS_URL and DATABASE_URL (PostgreSQL) these skip (CI sets both and requires
them); test_one_run_per_game.py runs the same rules in-process. The worker listens on the
default queue of REDIS_URL's database (this xdist worker's own), purged before it starts so
that no task left by earlier tests reaches it. The test process's Celery app is not
reconfigured: Celery keeps the queue of the first task a process sends (`app.amqp`), so a
queue of the test's own once sent every later task of the process there, and the next
worker in it (tests/games/test_bot_worker.py) never heard its ping (issue #43's CI failure).
"""

import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection
from django.test import Client

from games import services
from games.actors import Actor
from games.models import GameReview
from games.tasks import review_game
from tests.games.support import new_game, scripted_tokens
from tests.review.support import play_out

pytestmark = [
    pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                       reason="REDIS_URL not set: a real Celery worker needs the Redis broker "
                              "(test_one_run_per_game.py runs the same rules in-process)"),
    pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                       reason="DATABASE_URL is not PostgreSQL: the worker process needs a "
                              "database it can share with the test (not in-memory SQLite)"),
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 60  # seconds for the worker to start on a loaded machine
REVIEW_TIMEOUT = 180  # seconds for the worker's review of the game below
TURNS = 10  # the game's length: a few seconds of review with the real budget


def worker_database_url() -> str:
    s = connection.settings_dict
    auth = quote(s["USER"]) + (":" + quote(s["PASSWORD"]) if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


def wait_for(predicate, timeout: float, what: str, worker=None) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if worker is not None and worker.poll() is not None:
            pytest.fail(f"the worker exited ({worker.returncode}) waiting for {what}")
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.fixture
def worker(transactional_db, tmp_path):
    """A `celery -A cargosite worker` process (two prefork children) on the default queue,
    purged first. Yields (process, path of its log)."""
    from cargosite.celery import app

    assert not app.conf.task_always_eager
    app.control.purge()  # tasks left by earlier tests, sent with no worker to run them
    name = f"review-test-{uuid.uuid4().hex[:12]}"
    log = tmp_path / "worker.log"
    env = {**os.environ, "DATABASE_URL": worker_database_url(), "PYTHONUNBUFFERED": "1"}
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "cargosite", "worker", "-l", "info",
             "-n", f"{name}@%h", "--concurrency", "2",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(lambda: "ready." in log.read_text(), STARTUP_TIMEOUT, "the worker to start",
                 process)
        yield process, log
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # warm shutdown: it finishes and closes
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def review_row(game_id: str) -> GameReview | None:
    return GameReview.objects.filter(game_id=game_id).first()


def test_the_worker_reviews_a_game_once_while_a_second_request_waits(worker, users):
    process, log = worker
    alice, bob = users["alice"], users["bob"]
    game = new_game(alice, bob, size=5)
    play_out(game, scripted_tokens(5)[:TURNS], alice, bob)
    services.resign(game.id, actor=Actor.member(alice), ply=TURNS)
    client = Client()
    client.force_login(alice)

    response = client.post(f"/g/{game.id}/review")
    assert response.status_code == 302
    assert review_row(game.id).status in (GameReview.Status.QUEUED,  # sent, not run here
                                          GameReview.Status.RUNNING)  # (already the worker's)

    def running() -> bool:
        row = review_row(game.id)
        return row.status == GameReview.Status.RUNNING and 1 <= row.done < row.total - 1
    wait_for(running, REVIEW_TIMEOUT, "the worker to start reviewing", process)

    # Review again while the worker runs: the same run, no second task.
    again = client.post(f"/g/{game.id}/review")
    assert again.status_code == 302
    assert review_row(game.id).status == GameReview.Status.RUNNING
    page = client.get(f"/g/{game.id}/review")
    assert page.status_code == 200 and b"CargoBot is reviewing this shift" in page.content
    # A duplicated message reaching the worker's other child meanwhile does nothing.
    duplicate = review_game.apply_async((game.id,), ignore_result=False)
    assert duplicate.get(timeout=REVIEW_TIMEOUT) == "busy"
    duplicate.forget()

    wait_for(lambda: review_row(game.id).status == GameReview.Status.DONE, REVIEW_TIMEOUT,
             "the worker to finish the review", process)
    row = review_row(game.id)
    assert row.done == row.total == TURNS
    assert row.cpu_seconds is not None and row.cpu_seconds > 0
    assert len(row.data["turns"]) == TURNS and len(row.data["graph"]) == TURNS + 1
    status = client.get(f"/g/{game.id}/review.json").json()
    assert status["status"] == "done" and status["review"]["turns"] == row.data["turns"]

    # Cached once done: a third press sends nothing either.
    client.post(f"/g/{game.id}/review")
    assert review_row(game.id).finished_at == row.finished_at
    time.sleep(1)  # anything sent would have been received by now
    text = log.read_text()
    received = re.findall(r"Task games\.review_game\[([0-9a-f-]+)\] received", text)
    assert len(received) == 2 and duplicate.id in received  # the first press, the duplicate
    first = next(r for r in received if r != duplicate.id)
    assert re.search(rf"games\.review_game\[{first}\] succeeded in [0-9.]+s: 'done'", text)
    assert re.search(rf"games\.review_game\[{duplicate.id}\] succeeded in [0-9.]+s: 'busy'",
                     text)
