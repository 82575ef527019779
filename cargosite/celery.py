"""The Celery app: every CELERY_* Django setting configures it (see cargosite/settings.py).

Run a worker with beat: celery -A cargosite worker -B -l info

A worker that starts (after a crash, a deploy) sends CargoBot's task again at once for every
game waiting on it, rather than leave those turns to the next sweep: a worker killed
mid-turn leaves its message unacknowledged until the broker's visibility timeout.
"""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cargosite.settings")

app = Celery("cargosite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def resend_waiting_bot_turns(**kwargs: Any) -> None:
    from datetime import timedelta

    from games.bots import sweep_bot_games

    sweep_bot_games(older_than=timedelta(0))
