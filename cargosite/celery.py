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
"""

import logging
import os
import threading
from typing import Any

from celery import Celery
from celery.signals import worker_ready
from celery.worker.consumer import Consumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cargosite.settings")

app = Celery("cargosite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


log = logging.getLogger(__name__)

BROKER_RETRY_SECONDS = 1.0


class PromptConsumer(Consumer):
    """Celery's consumer, trying a lost broker again every BROKER_RETRY_SECONDS, and
    going on when closing the lost connection or acknowledging over it fails, and
    re-sending the waiting CargoBot turns once connected again."""

    lost_broker = False

    def ensure_connected(self, conn: Any) -> Any:
        ensure = conn.ensure_connection

        def every_second(*args: Any, **kwargs: Any) -> Any:
            kwargs.update(interval_start=BROKER_RETRY_SECONDS, interval_step=0,
                          interval_max=BROKER_RETRY_SECONDS)
            return ensure(*args, **kwargs)

        conn.ensure_connection = every_second
        connected = super().ensure_connected(conn)
        if self.lost_broker:
            self.lost_broker = False
            threading.Thread(target=resend_after_outage, name="bot-resend-after-outage",
                             daemon=True).start()
        return connected

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
            super().on_connection_error_after_connected(exc)
        except AttributeError as error:  # closing the collected connection (see above)
            log.warning("the lost broker connection could not be closed cleanly (%r); "
                        "reconnecting (an unacknowledged task is delivered again later, and "
                        "plays once)", error)


@worker_ready.connect
def resend_waiting_bot_turns(**kwargs: Any) -> None:
    from datetime import timedelta

    from games.bots import sweep_bot_games

    sweep_bot_games(older_than=timedelta(0))


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
