"""The tasks that acknowledge late are safe to run twice and retry when the database blinks
(``annuminas.tasks.idempotent_task``); each keeps its own time limits."""

import pytest
from celery import current_app
from django.db import InterfaceError, OperationalError

from battles.campaigns.scoring import STANDINGS_TIME_LIMIT

IDEMPOTENT = {
    "battles.postbattle_run": (120, 100),
    "battles.postbattle_notify": (60, 50),
    "battles.postbattle_runs": (300, 240),
    "battles.notification_dispatch": (120, 100),
}


@pytest.mark.parametrize(("name", "limits"), IDEMPOTENT.items())
def test_idempotent_tasks_ack_late_and_retry_database_errors(name, limits):
    task = current_app.tasks[name]
    assert task.acks_late and task.reject_on_worker_lost
    assert issubclass(OperationalError, tuple(task.autoretry_for))
    assert issubclass(InterfaceError, tuple(task.autoretry_for))
    assert (task.retry_backoff, task.retry_backoff_max, task.retry_jitter) == (2, 60, True)
    assert task.max_retries == 6
    assert (task.time_limit, task.soft_time_limit) == limits


def test_standings_job_stops_before_the_sweeper_fails_it():
    task = current_app.tasks["battles.standings_recompute_campaign"]
    assert task.acks_late and task.max_retries == 6
    assert task.time_limit == STANDINGS_TIME_LIMIT
    assert task.soft_time_limit == STANDINGS_TIME_LIMIT - 60
