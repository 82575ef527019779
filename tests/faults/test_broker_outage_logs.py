"""A broker outage is one line when it starts and one when it ends, in the worker and in
beat (issue #42, point 6): not Celery's line per retry (every second), its traceback for
restarting the Gossip step over the closed connection, its pending-deprecation notice, or
beat's traceback for every task that falls due while the broker is down
(cargosite/celery.py). Driven through Celery's own code, with the broker replaced."""

import logging
import time
import warnings
from types import SimpleNamespace

import pytest
from celery import bootsteps
from celery.exceptions import CPendingDeprecationWarning
from celery.worker.consumer import Consumer
from celery.worker.consumer.consumer import CANCEL_TASKS_BY_DEFAULT

from cargosite.celery import OneLineScheduler, PromptConsumer, app
from tests.faults.conftest import Records

LOGGERS = ("cargosite.celery", "celery.worker.consumer.consumer", "celery.bootsteps",
           "celery.beat")


@pytest.fixture
def lines(monkeypatch):
    """Every record of Celery's and the site's Celery loggers at WARNING or above, once
    each (a worker's setup may have reconfigured them)."""
    records = Records()
    for name in LOGGERS:
        logger = logging.getLogger(name)
        logger.addHandler(records)
        monkeypatch.setattr(logger, "disabled", False)
        monkeypatch.setattr(logger, "level", logging.INFO)
        monkeypatch.setattr(logger, "propagate", False)
    yield lambda: [r.getMessage() for r in records.records if r.levelno >= logging.WARNING]
    for name in LOGGERS:
        logging.getLogger(name).removeHandler(records)


class DownBroker:
    """A broker connection that fails `tries` times before it connects, calling the
    consumer's error callback at each failed try, as kombu does."""

    def __init__(self, tries):
        self.tries = tries

    def as_uri(self):
        return "redis://127.0.0.1:6379/0"

    def ensure_connection(self, errback=None, max_retries=None, callback=None, **intervals):
        for _ in range(self.tries):
            errback(ConnectionError("Error 111 connecting. Connection refused."), 1.0)
        return self


def consumer(monkeypatch):
    from cargosite import celery as worker

    monkeypatch.setattr(worker, "resend_after_outage", lambda: None)
    found = object.__new__(PromptConsumer)
    found.app = app
    found.first_connection_attempt = False
    found.broker_connection_retry_attempt = 0
    return found


def test_a_worker_that_cannot_reach_the_broker_at_start_says_so_once(monkeypatch, lines):
    worker = consumer(monkeypatch)
    worker.ensure_connected(DownBroker(tries=30))  # 30 s without Redis
    said = lines()
    assert len(said) == 2, said
    assert said[0].startswith("consumer: Cannot connect to")
    assert said[1] == "the broker answers"


def test_a_worker_that_loses_the_broker_says_so_once_and_once_when_it_is_back(
        monkeypatch, lines):
    from cargosite import celery as worker_module

    def lost(self, exc):  # Celery's own line, the notice it warns with every time, and
        # closing the collected connection failing as with Celery 5.7.0 and kombu 5.7
        logging.getLogger("celery.worker.consumer.consumer").warning(
            "consumer: Connection to broker lost. Trying to re-establish the connection...")
        warnings.warn(CANCEL_TASKS_BY_DEFAULT, CPendingDeprecationWarning, stacklevel=2)
        raise AttributeError("'NoneType' object has no attribute 'hostname'")

    monkeypatch.setattr(Consumer, "on_connection_error_after_connected", lost)
    monkeypatch.setattr(worker_module, "resend_waiting_bot_turns", lambda: None)
    monkeypatch.setattr("django.db.connections.close_all", lambda: None)
    resend = worker_module.resend_after_outage  # the real one: it says the broker is back
    worker = consumer(monkeypatch)
    monkeypatch.setattr(worker_module, "resend_after_outage", resend)
    with warnings.catch_warnings(record=True) as warned:
        warnings.filterwarnings("always", category=CPendingDeprecationWarning)  # as Celery
        worker.on_connection_error_after_connected(ConnectionError("Connection closed."))
    # Celery then restarts the consumer's steps; Gossip's cannot stop over the closed
    # connection.
    class Gossip:
        alias = "Gossip"

        def stop(self, parent):
            raise AttributeError("'NoneType' object has no attribute 'connection_errors'")

    blueprint = bootsteps.Blueprint(name="Consumer")
    blueprint.send_all(SimpleNamespace(steps=[Gossip()]), "stop", "restarting",
                       propagate=False)
    worker.ensure_connected(DownBroker(tries=15))
    for _ in range(100):  # the re-send runs on a thread of its own
        if len(lines()) >= 2:
            break
        time.sleep(0.05)
    assert [w for w in warned if issubclass(w.category, CPendingDeprecationWarning)] == []
    said = lines()
    assert len(said) == 2, said
    assert said[0].startswith("consumer: Connection to broker lost")
    assert said[1].startswith("the broker answers again")


def scheduler(tmp_path):
    return OneLineScheduler(app, schedule_filename=str(tmp_path / "beat-schedule"),
                            lazy=True)


def test_beat_says_once_that_the_broker_refuses_its_tasks_and_once_that_it_takes_them(
        tmp_path, monkeypatch, lines):
    from celery.beat import ScheduleEntry

    beat = scheduler(tmp_path)
    down = {"now": True}

    def apply_async(entry, producer=None, advance=True, **kwargs):
        if down["now"]:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        return SimpleNamespace(id="sent")

    monkeypatch.setattr(beat, "apply_async", apply_async)
    entry = ScheduleEntry(name="flag-clocks", task="games.flag_clocks", schedule=5.0, app=app)
    for _ in range(12):  # a minute of flag-clocks without Redis
        beat.apply_entry(entry)
    down["now"] = False
    for _ in range(3):
        beat.apply_entry(entry)
    said = lines()
    assert len(said) == 2, said
    assert said[0].startswith("beat: the broker refused the scheduled task flag-clocks")
    assert said[1].startswith("beat: the broker answers again")


def test_beat_that_cannot_reach_the_broker_at_start_says_so_once(tmp_path, monkeypatch,
                                                                  lines):
    beat = scheduler(tmp_path)
    monkeypatch.setattr(type(beat), "connection", DownBroker(tries=10), raising=False)
    beat._ensure_connected()
    said = lines()
    assert len(said) == 2, said
    assert said[0].startswith("beat: the broker does not answer")
    assert said[1] == "beat: the broker answers"
