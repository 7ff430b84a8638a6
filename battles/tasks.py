"""Celery tasks: thin wrappers that take ids and call services.

``postbattle_run_task`` is idempotent (the run row is locked and its status checked before
anything is rolled), so it acknowledges late and is delivered again if a worker dies mid-task.
The broker redelivers such a message only after its visibility timeout; well before that, the
sweeper (every minute) sends again the runs whose heartbeat stopped, and the late redelivery
then finds them applied and does nothing.

Imports go one way: these tasks import the services they call; the services queue them by
their registered names (``annuminas.tasks.enqueue_safely("battles.postbattle_run", …)``) and
never import this module. ``BattlesConfig.ready`` imports it so every process knows the names.
"""

from celery import shared_task
from django.db import DatabaseError, InterfaceError, OperationalError

from battles.postbattle import (
    jobs_sweep_stuck,
    postbattle_applied_notify,
    postbattle_runs_apply,
    standings_recompute_all,
)
from battles.scoring import STANDINGS_TIME_LIMIT, standings_recompute_job_run


@shared_task(
    name="battles.postbattle_run",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError, DatabaseError),
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=6,
    time_limit=120,
    soft_time_limit=100,
)
def postbattle_run_task(run_id: int) -> dict:

    (run,) = postbattle_runs_apply(run_ids=[run_id])
    return {"run": run.pk, "status": run.status}


@shared_task(
    name="battles.postbattle_notify",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError, DatabaseError),
    retry_backoff=2,
    max_retries=6,
    time_limit=60,
    soft_time_limit=50,
)
def postbattle_notify_task(run_id: int) -> int:
    """Notifications after a run was applied (idempotent: each is recorded once)."""

    return postbattle_applied_notify(run_id=run_id)


@shared_task(
    name="battles.postbattle_runs",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError, DatabaseError),
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=6,
    time_limit=300,
    soft_time_limit=240,
)
def postbattle_runs_task(run_ids: list[int]) -> dict:
    """A chunk of a round's runs (same guarantees as ``postbattle_run_task``, per run)."""

    runs = postbattle_runs_apply(run_ids=list(run_ids))
    return {"runs": [run.pk for run in runs], "statuses": [run.status for run in runs]}


@shared_task(name="battles.jobs_sweep", time_limit=120, soft_time_limit=100)
def jobs_sweep_task() -> list[int]:
    """Beat sends it every minute: lost post-battle runs are sent again, finished jobs close."""

    return jobs_sweep_stuck()


@shared_task(name="battles.standings_recompute", time_limit=600, soft_time_limit=540)
def standings_recompute_task() -> int:

    return standings_recompute_all()


@shared_task(
    name="battles.standings_recompute_campaign",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError, DatabaseError),
    retry_backoff=2,
    max_retries=6,
    time_limit=STANDINGS_TIME_LIMIT,  # the sweeper fails a job running longer than this
    soft_time_limit=STANDINGS_TIME_LIMIT - 60,
)
def standings_recompute_campaign_task(job_id: int) -> int:
    """A campaign's standings after its scoring changed (idempotent: see the job's service)."""

    standings_recompute_job_run(job_id=job_id)
    return job_id
