"""The Celery app: every CELERY_* Django setting configures it (see cargosite/settings.py).

Run a worker with beat: celery -A cargosite worker -B -l info

A worker that starts (after a crash, a deploy) sends CargoBot's task again at once for every
game waiting on it, rather than leave those turns to the next sweep: a worker killed
mid-turn leaves its message unacknowledged until the broker's visibility timeout.

The worker's consumer (`PromptConsumer`, CELERY_WORKER_CONSUMER) retries a lost broker every
second; Celery's own waits 2, 4, 6 ... up to 30 s between tries, so after a Redis outage a
worker could come back (and CargoBot move) up to 30 s after Redis did. It also survives
losing Redis while a task's acknowledgement is due. With Celery 5.7.0 and kombu 5.7 the
worker would exit ("Unrecoverable error: AttributeError") in two ways: closing the lost
connection after collecting it fails when kombu restores the unacknowledged message over
it, and a task that finishes across the reconnect is acknowledged over the old, dead
channel. Here the first reconnects, and the second is a logged "Couldn't ack" (the message
went with the old connection; delivered again, the task plays once).

Back on the broker after losing it, the worker sends CargoBot's task again for every game
waiting on it, as at start: Celery drops the tasks it had prefetched but not started when
the connection goes (it counts on the broker delivering them again), and a Redis restarted
without its data has forgotten them, as it has forgotten a task sent just before it went.

A broker outage is one line when it starts and one when it ends, in the worker and in beat
(issue #42, point 6): the worker's "Connection to broker lost" (or, at start, its first
"Cannot connect"), then "the broker answers again"; Celery's own line per retry (every
second), its traceback for restarting the Gossip step over the closed connection, and its
pending-deprecation notice are not logged. Beat (`OneLineScheduler`) says once that the
broker refused a scheduled task and once that it takes them again, instead of a traceback
for every task due while it is down. The worker waits for the broker however long it is
gone (Celery gives up after 100 tries and exits).

PostgreSQL: Celery's processes take no connection pool (`no_pool`): Celery closes the
database connections around every task, one task at a time in each child process, so a
pool would be opened and closed at every task (issue #42, point 1; docs/production.md,
"Database connections"). The worker's main process closes what its own sweeps opened.
"""

import logging
import os
import threading
import warnings
from typing import Any

from celery import Celery
from celery.beat import PersistentScheduler, ScheduleEntry
from celery.exceptions import CPendingDeprecationWarning
from celery.signals import beat_init, worker_init, worker_ready
from celery.worker.consumer import Consumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cargosite.settings")

app = Celery("cargosite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The process's app in every thread: Celery makes a new app current only in the thread
# that made it, and its Django fix-up makes it the default only when no default app exists
# yet. Had anything touched `celery.current_app` before this module loaded, the other
# threads (a request's or a socket's worker thread, the embedded default's review thread)
# would find Celery's bare default app, without these settings (the review task's retries)
# or tasks (common.queue sends tasks by name): tests/platform/test_task_queue.py.
app.set_default()


log = logging.getLogger(__name__)

BROKER_RETRY_SECONDS = 1.0


class RestartAfterLostBroker(logging.Filter):
    """Celery restarts the consumer's steps after a lost broker, and logs a traceback for
    each step that cannot stop cleanly over the closed connection ("Error on restarting
    Gossip"): the outage's one line has said what happened."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.msg == "Error on %s %s: %r" and isinstance(record.args, tuple)
                    and record.args[:1] == ("restarting",))


logging.getLogger("celery.bootsteps").addFilter(RestartAfterLostBroker())


class PromptConsumer(Consumer):
    """Celery's consumer, trying a lost broker again every BROKER_RETRY_SECONDS, and
    going on when closing the lost connection or acknowledging over it fails, and
    re-sending the waiting CargoBot turns once connected again."""

    lost_broker = False
    unreachable = False  # the broker did not answer a first connection: said once

    def ensure_connected(self, conn: Any) -> Any:
        ensure = conn.ensure_connection

        def every_second(errback: Any = None, *args: Any, **kwargs: Any) -> Any:
            kwargs.update(interval_start=BROKER_RETRY_SECONDS, interval_step=0,
                          interval_max=BROKER_RETRY_SECONDS)
            return ensure(self._first_failure_only(errback), *args, **kwargs)

        conn.ensure_connection = every_second
        connected = super().ensure_connected(conn)
        if self.unreachable and not self.lost_broker:
            self.unreachable = False
            log.warning("the broker answers")
        if self.lost_broker:
            self.lost_broker = self.unreachable = False
            threading.Thread(target=resend_after_outage, name="bot-resend-after-outage",
                             daemon=True).start()
        return connected

    def _first_failure_only(self, errback: Any) -> Any:
        """Celery's line for a failed try (an error, every second): only for the first try
        of a first connection; after a lost connection, its warning has said it."""

        def once(exc: Exception, interval: float) -> None:
            if self.lost_broker or self.unreachable:
                return
            self.unreachable = True
            if errback is not None:
                errback(exc, interval)

        return once

    def update_strategies(self) -> None:
        # The task strategies pass these errors to each message's ack and reject, which
        # log them instead of raising; an ack over a channel of a lost connection raises
        # AttributeError (see above).
        errors: tuple[type[BaseException], ...] = self.connection_errors  # type: ignore[has-type]
        self.connection_errors = (*errors, AttributeError)
        try:
            super().update_strategies()
        finally:
            self.connection_errors = errors

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        self.lost_broker = True
        try:
            with warnings.catch_warnings():
                # Celery 5.7 warns at every lost connection that Celery 6 will cancel the
                # running late-ack tasks then: a notice for developers, not news of the
                # outage (the site's tasks play once however often they are delivered).
                warnings.simplefilter("ignore", CPendingDeprecationWarning)
                super().on_connection_error_after_connected(exc)
        except AttributeError as error:  # closing the collected connection (see above)
            # A detail of the outage Celery's warning has just said: not a second warning.
            log.info("the lost broker connection could not be closed cleanly (%r); "
                        "reconnecting (an unacknowledged task is delivered again later, and "
                        "plays once)", error)


class OneLineScheduler(PersistentScheduler):
    """Beat's scheduler (CELERY_BEAT_SCHEDULER), saying once that the broker refuses the
    tasks that fall due, and once that it takes them again; Celery's logs a traceback for
    each (flag-clocks: every 5 s)."""

    broker_down = False

    def _ensure_connected(self) -> Any:
        """Celery's, with its line for a failed first connection said once, not at every
        try; and a line when the broker answers after all."""
        failed: list[Exception] = []

        def once(exc: Exception, interval: float) -> None:
            if not failed:
                log.warning("beat: the broker does not answer (%s); trying again, and beat "
                            "says when it answers", exc)
            failed.append(exc)

        connection = self.connection.ensure_connection(
            once, self.app.conf.broker_connection_max_retries)
        if failed:
            log.warning("beat: the broker answers")
        return connection

    def apply_entry(self, entry: ScheduleEntry, producer: Any = None) -> None:
        logging.getLogger("celery.beat").info("Scheduler: Sending due task %s (%s)",
                                              entry.name, entry.task)  # as Celery's
        try:
            self.apply_async(entry, producer=producer, advance=False)
        except Exception as error:
            if not self.broker_down:
                self.broker_down = True
                log.warning("beat: the broker refused the scheduled task %s (%s: %s); the "
                            "schedule goes on, and beat says when the broker answers again",
                            entry.name, type(error).__name__, error)
            return
        if self.broker_down:
            self.broker_down = False
            log.warning("beat: the broker answers again (the scheduled task %s was sent)",
                        entry.name)


@worker_init.connect
@beat_init.connect
def no_pool(**kwargs: Any) -> None:
    """Celery's processes open their connections without the pool (see above)."""
    from django.db import connections

    for alias in connections:
        connections.settings[alias].get("OPTIONS", {}).pop("pool", None)


@worker_ready.connect
def resend_waiting_bot_turns(**kwargs: Any) -> None:
    from datetime import timedelta

    from django.db import connections

    from games.botplay.bots import sweep_bot_games

    try:
        sweep_bot_games(older_than=timedelta(0))
    finally:
        if kwargs.get("sender") is not None:  # the worker's main process: hold none
            connections.close_all()


def resend_after_outage() -> None:
    """`resend_waiting_bot_turns` on a thread of its own after a broker outage: the database
    may be down too, and the consumer must not wait on it."""
    from django.db import connections

    try:
        resend_waiting_bot_turns()
        log.warning("the broker answers again; CargoBot's waiting turns were re-sent")
    except Exception:  # the sweep on the beat re-sends them later
        log.exception("re-sending CargoBot's waiting turns after the broker outage failed")
    finally:
        connections.close_all()  # this thread's own
