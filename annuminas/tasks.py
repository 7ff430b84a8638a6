"""Project-level tasks."""

from celery import shared_task
from django.db import connection


@shared_task(
    name="annuminas.ping",
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=10,
    soft_time_limit=8,
)
def ping() -> dict:
    """Answer from the worker, proving broker, worker and database reach each other."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        database_ok = cursor.fetchone()[0] == 1
    return {"pong": True, "database": database_ok}
