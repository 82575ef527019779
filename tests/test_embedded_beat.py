"""The periodic tasks in the embedded default (issue #42, point 19; cargosite/beat.py):
without REDIS_URL the serving process runs CELERY_BEAT_SCHEDULE from its lifespan startup,
so the email digest is sent under `make run`; every entry runs at startup and then on its
own schedule; a failing task is logged and the loop goes on; the site's ASGI application
answers the lifespan protocol and starts the beat only with EMBEDDED_BEAT on. Time is a
clock the test moves: nothing here waits."""

import asyncio
import datetime as dt
import logging
import os
import re
import subprocess
from pathlib import Path

import pytest
from asgiref.testing import ApplicationCommunicator
from django.conf import settings as django_settings

from cargosite import beat
from notifications import choices
from tests.games.conftest import users  # noqa: F401  (alice, bob, carol)
from tests.notifications.support import correspondence_game, play

ROOT = Path(__file__).resolve().parents[1]
T0 = dt.datetime(2026, 12, 7, 9, 0, 0, 500_000, tzinfo=dt.UTC)


class Clock:
    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now

    def at(self, seconds):
        self.now = T0 + dt.timedelta(seconds=seconds)


def recorded(clock):
    ran = []
    return ran, beat.Beat(clock=clock, runner=lambda task: ran.append(task) or True)


def test_the_default_is_on_exactly_without_redis(run_python):
    code = ("import django; django.setup(); from django.conf import settings; "
            "print(settings.EMBEDDED_BEAT)")
    assert run_python(code, REDIS_URL="").stdout.strip() == "True"
    assert run_python(code, REDIS_URL="redis://127.0.0.1:6379/13").stdout.strip() == "False"
    assert run_python(code, EMBEDDED_BEAT="0").stdout.strip() == "False"


def test_every_entry_runs_at_startup_then_on_its_schedule():
    clock = Clock()
    ran, scheduler = recorded(clock)
    tasks = {name: spec["task"] for name, spec in django_settings.CELERY_BEAT_SCHEDULE.items()}
    wait = asyncio.run(scheduler.tick())
    assert ran == list(tasks.values())  # each once, in the schedule's order
    assert 0 < wait <= 5
    ran.clear()
    clock.at(3)
    asyncio.run(scheduler.tick())
    assert ran == []  # nothing due yet
    clock.at(5)
    asyncio.run(scheduler.tick())
    assert ran == [tasks["flag-clocks"]]  # every 5 s
    ran.clear()
    clock.at(30)
    asyncio.run(scheduler.tick())
    assert sorted(ran) == sorted([tasks["sweep-bot-games"], tasks["flag-clocks"],
                                  tasks["tournaments-tick"]])  # the tick: every 15 s
    ran.clear()
    clock.at(60)  # the crontab of every minute, at the minute
    asyncio.run(scheduler.tick())
    assert tasks["daily-end-of-day"] in ran
    assert tasks["notifications-digest"] not in ran
    ran.clear()
    clock.at(3600)
    asyncio.run(scheduler.tick())
    assert tasks["notifications-digest"] in ran  # hourly


@pytest.mark.django_db(transaction=True)
def test_the_embedded_beat_sends_the_digest(users, mailoutbox, settings):  # noqa: F811
    settings.SITE_URL = "http://127.0.0.1:8001"
    alice, bob = users["alice"], users["bob"]
    game = correspondence_game(alice, bob)
    play(game.id, alice)
    play(game.id, bob)  # alice to move
    choices.save(alice, in_site=["your_turn"], by_email=["your_turn"], digest=True,
                 alarm=False)
    asyncio.run(beat.Beat().tick())
    [digest] = [m for m in mailoutbox if m.to == [alice.email]]
    assert digest.subject == "1 game waiting for you"
    assert f"http://127.0.0.1:8001/g/{game.id}" in digest.body


@pytest.mark.django_db(transaction=True)
def test_a_failing_task_is_logged_and_the_rest_still_run(caplog, monkeypatch):
    monkeypatch.setattr(logging.getLogger("cargosite.beat"), "handlers", [caplog.handler])
    clock = Clock()
    ran, failed = [], []

    def runner(task):
        ran.append(task)
        if task == "games.flag_clocks":
            failed.append(beat.run_task("no.such.task"))
        return True

    scheduler = beat.Beat(clock=clock, runner=runner)
    asyncio.run(scheduler.tick())
    assert len(ran) == len(django_settings.CELERY_BEAT_SCHEDULE) and failed == [False]
    assert "periodic task no.such.task failed" in caplog.text


class App:
    def __init__(self):
        self.scopes = []

    async def __call__(self, scope, receive, send):
        self.scopes.append(scope["type"])


async def lifespan(app):
    talk = ApplicationCommunicator(app, {"type": "lifespan"})
    await talk.send_input({"type": "lifespan.startup"})
    started = await talk.receive_output(timeout=5)
    await talk.send_input({"type": "lifespan.shutdown"})
    stopped = await talk.receive_output(timeout=5)
    await talk.wait(timeout=5)
    return started["type"], stopped["type"]


@pytest.mark.parametrize("on", [True, False])
def test_the_lifespan_starts_and_stops_the_beat(settings, on):
    settings.EMBEDDED_BEAT = on
    made, cancelled = [], []

    class Fake:
        async def run_forever(self):
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                cancelled.append(True)
                raise

    def factory():
        made.append(True)
        return Fake()

    app = App()
    wrapped = beat.EmbeddedBeat(app, beat=factory)
    answers = asyncio.run(lifespan(wrapped))
    assert answers == ("lifespan.startup.complete", "lifespan.shutdown.complete")
    assert made == cancelled == ([True] if on else [])
    asyncio.run(wrapped({"type": "http"}, None, None))
    assert app.scopes == ["http"]  # everything else goes to the site


def test_the_sites_application_answers_the_lifespan(settings):
    from cargosite.asgi import application

    settings.EMBEDDED_BEAT = False
    assert asyncio.run(lifespan(application)) == ("lifespan.startup.complete",
                                                 "lifespan.shutdown.complete")


def make_run(*args, **env):
    """The shell lines `make run` would run (make -n), for these variables."""
    environ = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "REDIS_URL")}
    return subprocess.run(["make", "-n", "run", *args], cwd=ROOT, capture_output=True,
                          text=True, env={**environ, **env}, check=True).stdout


def serving_env(lines, **env):
    """SITE_URL as the served process gets it: the export line of the recipe, run."""
    [export] = [line for line in lines.splitlines() if line.startswith("export SITE_URL=")]
    environ = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    return subprocess.run(["sh", "-c", f"{export.split(';')[0]}; echo $SITE_URL"],
                          capture_output=True, text=True, env={**environ, **env},
                          check=True).stdout.strip()


def test_make_run_links_to_the_port_it_serves():
    lines = make_run("PORT=8001")
    assert re.search(r"uvicorn cargosite.asgi:application --host 127.0.0.1 --port 8001",
                     lines)
    assert serving_env(lines) == "http://127.0.0.1:8001"
    assert serving_env(lines, SITE_URL="https://cargo.example") == "https://cargo.example"
    assert serving_env(make_run()) == "http://127.0.0.1:8000"
