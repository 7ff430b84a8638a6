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

from annuminas.tasks import idempotent_task
from battles.campaigns.scoring import STANDINGS_TIME_LIMIT, standings_recompute_job_run
from battles.postbattle import (
    jobs_sweep_stuck,
    postbattle_applied_notify,
    postbattle_runs_apply,
    standings_recompute_all,
)


@idempotent_task("battles.postbattle_run", time_limit=120, soft_time_limit=100)
def postbattle_run_task(run_id: int) -> dict:

    (run,) = postbattle_runs_apply(run_ids=[run_id])
    return {"run": run.pk, "status": run.status}


@idempotent_task("battles.postbattle_notify", time_limit=60, soft_time_limit=50)
def postbattle_notify_task(run_id: int) -> int:
    """Notifications after a run was applied (idempotent: each is recorded once)."""

    return postbattle_applied_notify(run_id=run_id)


@idempotent_task("battles.postbattle_runs", time_limit=300, soft_time_limit=240)
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


# The sweeper fails a job running longer than STANDINGS_TIME_LIMIT.
@idempotent_task(
    "battles.standings_recompute_campaign",
    time_limit=STANDINGS_TIME_LIMIT,
    soft_time_limit=STANDINGS_TIME_LIMIT - 60,
)
def standings_recompute_campaign_task(job_id: int) -> int:
    """A campaign's standings after its scoring changed (idempotent: see the job's service)."""

    standings_recompute_job_run(job_id=job_id)
    return job_id
