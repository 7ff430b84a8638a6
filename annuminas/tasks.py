"""Project-level tasks, and the one way to queue follow-up work after a commit."""

import logging

from celery import current_app, shared_task
from django.conf import settings
from django.db import DatabaseError, InterfaceError, connection
from django.db import OperationalError as DatabaseOperationalError
from kombu.exceptions import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .breaker import CircuitBreaker

logger = logging.getLogger(__name__)

# What Redis clients raise when Redis (broker or cache) cannot be reached; a request that meets
# one answers 503 (annuminas.api.errors, annuminas.middleware), never a bare 500.
BACKEND_UNAVAILABLE = (OperationalError, RedisConnectionError, RedisTimeoutError)
# Publishing may also fail at the socket level.
BROKER_UNAVAILABLE = (*BACKEND_UNAVAILABLE, OSError)
# What the database raises when it blinks (a dropped connection, a failover): worth a retry.
DATABASE_HICCUPS = (DatabaseOperationalError, InterfaceError, DatabaseError)


def idempotent_task(name: str, *, time_limit: int, soft_time_limit: int):
    """``shared_task`` for a task that is safe to run twice (it locks and checks before it
    writes): acknowledged late, delivered again if its worker dies, retried up to six times with
    a growing pause (2 s doubling, at most a minute, jittered) when the database blinks. Before
    every task the worker checks the connection a failure left behind and opens a new one if it
    is broken (``annuminas.celery``), so a retry after a database restart finds a live one."""
    return shared_task(
        name=name,
        acks_late=True,
        reject_on_worker_lost=True,
        autoretry_for=DATABASE_HICCUPS,
        retry_backoff=2,
        retry_backoff_max=60,
        retry_jitter=True,
        max_retries=6,
        time_limit=time_limit,
        soft_time_limit=soft_time_limit,
    )


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


# One breaker per broker address (a deployment has one; tests use several).
_broker_breakers: dict[str, CircuitBreaker] = {}


def _broker_breaker(app) -> CircuitBreaker:
    url = str(app.conf.broker_url)
    breaker = _broker_breakers.get(url)
    if breaker is None:
        breaker = _broker_breakers.setdefault(
            url, CircuitBreaker("the task broker (Redis)", retry_after=settings.BROKER_RETRY_AFTER)
        )
    return breaker


def enqueue_safely(task, *args, **kwargs) -> bool:
    """Send ``task(*args, **kwargs)`` to the broker; False (logged, not raised) if it is down.

    ``task`` is a task or its registered name: a service names the task it queues, so it need not
    import the tasks module that imports it (tasks call services; services name tasks).

    For work that is already committed and that a periodic sweeper re-sends (post-battle runs)
    or that can be done later (the sheet rendered ahead): the write that asked for it must
    succeed even when Redis is unreachable, so an ``on_commit`` callback never turns a committed
    write into a 500, and never makes it wait: one attempt, a short connect timeout
    (``CELERY_BROKER_CONNECTION_TIMEOUT``), and after a failure a circuit breaker that skips the
    broker for ``BROKER_RETRY_AFTER`` seconds. Errors raised by the task itself (tasks run
    in-process when no broker is configured) still propagate.
    """
    if isinstance(task, str):
        task = current_app.tasks[task]
    # In-process tasks (no broker) never meet the broker: only a real send is guarded.
    breaker = None if task.app.conf.task_always_eager else _broker_breaker(task.app)
    if breaker is not None and breaker.skipping():
        logger.info("not queued %s: the broker is unreachable", task.name)
        return False
    try:
        # Fire and forget: nobody waits for the result, so the send does not subscribe to it
        # (with Redis down, that subscription retried for ~20 s and then raised RuntimeError).
        task.apply_async(args=args, kwargs=kwargs, retry=False, ignore_result=True)
    except BROKER_UNAVAILABLE as exc:
        if breaker is not None:
            breaker.failed(exc)
        logger.warning(
            "could not queue %s (%s: %s); the sweeper will send it later",
            task.name,
            type(exc).__name__,
            exc,
        )
        return False
    if breaker is not None:
        breaker.succeeded()
    return True
