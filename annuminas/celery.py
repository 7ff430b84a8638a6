"""The Celery application. Settings come from Django's (``CELERY_*``).

Without ``REDIS_URL`` tasks run eagerly in-process; with it, Redis is broker and result backend.
Tasks receive ids only (JSON), and the idempotent ones set ``acks_late`` with
``reject_on_worker_lost`` so a killed worker's task is delivered again.

Database connections in a worker: each process keeps its connection across tasks
(``CELERY_DB_REUSE_MAX``: a new connection per task cost a fifth of a post-battle run), and
before every task checks it the way Django checks a request's (``close_if_unusable_or_obsolete``:
a connection that met an error, or is older than ``CONN_MAX_AGE``, is tested or replaced). After
a PostgreSQL restart a task finds a new connection; one that was running when the server went
away fails, is retried (``idempotent_task``) and finds one too.

``python -m annuminas.worker_health`` (the compose health check) asks a worker, through the
broker, to reach the database (the ``database_ping`` control command below).
"""

import os

from celery import Celery, signals
from celery.worker.control import inspect_command

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annuminas.settings")

app = Celery("annuminas", include=["annuminas.tasks", "battles.notifications.tasks"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.task_prerun.connect
def _connections_checked(sender=None, **kwargs) -> None:
    """Before a task in a worker: drop a connection that failed or outlived CONN_MAX_AGE, and
    have the next query check the one kept (Django's health check, as at a request's start)."""
    if sender is None or getattr(sender.request, "is_eager", False):
        return  # in-process tasks share the caller's connection and transaction
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close_if_unusable_or_obsolete()


@inspect_command()
def database_ping(state) -> dict:
    """Answered by the worker's main process: can it reach the database with its settings?"""
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "unreachable"; the reason is reported
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    finally:
        # The main process forks pool processes: it must not hold a connection they inherit.
        connection.close()
    return {"ok": True}
