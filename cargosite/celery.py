"""The Celery app: every CELERY_* Django setting configures it (see cargosite/settings.py).

Run a worker with beat: celery -A cargosite worker -B -l info
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cargosite.settings")

app = Celery("cargosite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
