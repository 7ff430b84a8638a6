"""Celery tasks for notifications: thin, ids only, idempotent (see services for the locks)."""

from __future__ import annotations

from celery import shared_task

from annuminas.tasks import idempotent_task

from .services import (
    backoff,
    notification_event_dispatch,
    notifications_digest_send,
    notifications_resend,
    rounds_closing_notify,
    webhook_delivery_attempt,
)


@idempotent_task("battles.notification_dispatch", time_limit=120, soft_time_limit=100)
def notification_dispatch_task(event_id: int) -> dict:
    result = notification_event_dispatch(event_id=event_id)
    return {"event": event_id, "notifications": result.notifications, "emails": result.emails}


@shared_task(
    bind=True,
    name="battles.webhook_deliver",
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,  # the delivery row counts the attempts (WEBHOOK_MAX_ATTEMPTS)
    time_limit=60,
    soft_time_limit=50,
)
def webhook_deliver_task(self, delivery_id: int) -> dict:
    attempt = webhook_delivery_attempt(delivery_id=delivery_id)
    # In-process (no broker) a retry would wait inside the request: the sweeper retries instead.
    if attempt.retry and not self.request.is_eager:
        raise self.retry(countdown=backoff(attempt.attempts))
    return {"delivery": delivery_id, "status": attempt.status, "attempts": attempt.attempts}


@shared_task(name="battles.notifications_digest", time_limit=600, soft_time_limit=580)
def notifications_digest_task() -> int:
    return notifications_digest_send()


@shared_task(name="battles.rounds_closing_notify", time_limit=120, soft_time_limit=100)
def rounds_closing_notify_task() -> int:
    return rounds_closing_notify()


@shared_task(name="battles.notifications_resend", time_limit=120, soft_time_limit=100)
def notifications_resend_task() -> int:
    return notifications_resend()
