"""A real worker through a PostgreSQL restart, and its health check.

The worker keeps its database connection across tasks as in production (``CONN_MAX_AGE=60``,
``CELERY_DB_REUSE_MAX``). The test terminates every connection the worker holds
(``pg_terminate_backend``, what a restart does to them) while it is idle and again in the middle
of a round: the sweeper still runs and the round still completes, by the worker alone, every
battle applied once. Before the worker checked its connection before each task, a task whose
first statement met the dead connection failed, and so did every retry: the round stayed stuck.
"""

import os
import socket
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.db import connection

from battles.models import Job, PostBattleResult, PostBattleRun
from battles.postbattle import round_resolve_start
from tests.battles.test_postbattle_worker import _round_of_confirmed_battles, _wait
from tests.conftest import ROOT, WorkerProcess
from warbands.selectors import ledger_mismatches

pytestmark = [pytest.mark.worker, pytest.mark.redis]

BATTLES = 60
BUDGET = 120  # seconds from the first cut to the finished round


@pytest.fixture
def reusing_worker(transactional_db, redis_url):
    """A real worker that keeps its connection between tasks, as deployed (``redis_url``:
    tasks go to the broker, not in-process)."""
    if connection.vendor != "postgresql":
        pytest.skip("a real worker needs a shared database server (set DATABASE_URL)")
    from annuminas.celery import app

    app.control.purge()
    worker = WorkerProcess(
        settings.CELERY_TASK_DEFAULT_QUEUE,
        {"CONN_MAX_AGE": "60", "CELERY_DB_REUSE_MAX": "1000"},
    )
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()


def _terminate_other_connections() -> int:
    """What a PostgreSQL restart does to the worker: its connections die under it."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def _round_done(job: Job, budget: float) -> Job:
    _wait(lambda: not Job.objects.get(pk=job.pk).is_active, budget, "the round to finish")
    job.refresh_from_db()
    return job


def test_the_worker_finishes_a_round_through_database_restarts(reusing_worker):
    from annuminas.celery import app

    warm_up = _round_done(
        round_resolve_start(round=_round_of_confirmed_battles(5, prefix="warm-"), user=None), 60
    )
    assert warm_up.status == Job.Status.SUCCEEDED
    # The worker is idle, its connection kept: the restart kills it between two tasks (the
    # next task's first statement, outside any transaction, met the dead connection and every
    # retry met it again: the round stayed at 0).
    assert _terminate_other_connections() >= 1, "the worker kept no connection: nothing tested"
    sweep = app.send_task("battles.jobs_sweep")
    assert isinstance(sweep.get(timeout=60), list)  # the sweeper runs, on a new connection

    round = _round_of_confirmed_battles(BATTLES, prefix="cut-")
    assert _terminate_other_connections() >= 1
    started = time.monotonic()
    job = round_resolve_start(round=round, user=None)
    applied = PostBattleRun.objects.filter(job=job, status=PostBattleRun.Status.APPLIED)
    _wait(lambda: applied.count() >= 20 or not Job.objects.get(pk=job.pk).is_active, 120,
          "20 battles")  # fmt: skip
    _terminate_other_connections()  # and once more, in the middle of the round
    job = _round_done(job, BUDGET)
    assert (job.status, job.done, job.failed) == (Job.Status.SUCCEEDED, BATTLES, 0), job.errors
    assert applied.count() == BATTLES
    assert PostBattleResult.objects.filter(run__job=job).count() == 2 * BATTLES  # once each
    assert ledger_mismatches() == []
    print(f"round of {BATTLES} finished {time.monotonic() - started:.1f} s after its start")


def _health(worker_name: str | None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "annuminas.worker_health"]
    return subprocess.run(  # noqa: S603 - fixed command line
        [*command, worker_name] if worker_name else command,
        cwd=ROOT,
        env={**os.environ, "REDIS_URL": settings.REDIS_URL, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_health_check_asks_the_worker_to_reach_the_database(celery_worker):
    name = f"{celery_worker.name}@{socket.gethostname()}"
    healthy = _health(name)
    assert healthy.returncode == 0, healthy.stderr
    assert "database reachable" in healthy.stdout
    unknown = _health(f"nobody@{socket.gethostname()}")
    assert unknown.returncode == 1
    assert "no answer" in unknown.stderr
