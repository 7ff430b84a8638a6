"""The Celery application. Settings come from Django's (``CELERY_*``).

Without ``REDIS_URL`` tasks run eagerly in-process; with it, Redis is broker and result backend.
Tasks receive ids only (JSON), and the idempotent ones set ``acks_late`` with
``reject_on_worker_lost`` so a killed worker's task is delivered again.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annuminas.settings")

app = Celery("annuminas", include=["annuminas.tasks", "battles.notifications.tasks"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
