"""Periodic work (Celery beat): the daily digest, rounds about to close, and the resend sweep."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from battles.models import Round
from battles.models.notifications import (
    Event,
    Notification,
    NotificationEvent,
    NotificationPreference,
    WebhookDelivery,
)

from .emails import email_send, email_send_immediate, emails_unsent
from .outbox import enqueue_dispatch, notify
from .webhooks import deliveries_enqueue

ROUND_CLOSING_WINDOW = timedelta(hours=48)
# An immediate e-mail whose send failed is tried again by the resend sweep for this long.
EMAIL_RESEND_WINDOW = timedelta(hours=1)

logger = logging.getLogger(__name__)


def notifications_digest_send(*, now=None) -> int:
    """E-mail each digest reader what he has not been e-mailed yet; returns e-mails sent.

    Each user's rows are locked and stamped in his own transaction, which commits before his
    e-mail goes out (no lock held while mailing; a rollback can no longer send it twice), so a
    second run the same day sends nothing again. A send that fails takes its stamps back: the
    next digest gathers them again.
    """
    now = now or timezone.now()
    sent = 0
    preferences = NotificationPreference.objects.filter(
        email_mode=NotificationPreference.Mode.DIGEST
    ).exclude(user__email="")
    for preference_id in preferences.values_list("pk", flat=True):
        claimed = _digest_claim(preference_id, now)
        if claimed is None:
            continue
        user, rows, language = claimed
        try:
            email_send(user, rows, language)
        except Exception:
            Notification.objects.filter(pk__in=[n.pk for n in rows], emailed_at=now).update(
                emailed_at=None
            )
            logger.exception("digest e-mail to user %s failed", user.pk)
            continue
        sent += 1
    return sent


def _digest_claim(preference_id: int, now) -> tuple[Any, list[Notification], str] | None:
    """Stamp one digest reader's rows e-mailed (under their locks, committed on return)."""
    with transaction.atomic():
        preference = (
            NotificationPreference.objects.select_for_update()
            .select_related("user")
            .get(pk=preference_id)
        )
        rows = list(
            Notification.objects.select_for_update()
            .filter(
                recipient=preference.user,
                emailed_at__isnull=True,
                event__in=preference.email_events,
                created_at__gte=now - timedelta(days=7),
            )
            .order_by("created_at", "id")[:100]
        )
        if not rows:
            return None
        Notification.objects.filter(pk__in=[n.pk for n in rows]).update(emailed_at=now)
        preference.last_digest_at = now
        preference.save(update_fields=["last_digest_at"])
    return preference.user, rows, preference.language


def rounds_closing_notify(*, now=None) -> int:
    """Announce each open round whose deadline falls within 48 hours (once per deadline)."""
    now = now or timezone.now()
    rounds = Round.objects.filter(
        status=Round.Status.OPEN,
        closes_at__gt=now,
        closes_at__lte=now + ROUND_CLOSING_WINDOW,
        campaign__archived=False,
    ).select_related("campaign")
    announced = 0
    for round in rounds:
        with transaction.atomic():
            if notify(
                event=Event.ROUND_CLOSING,
                round=round,
                key=f"round:{round.pk}:{round.closes_at.isoformat()}",
            ):
                announced += 1
    return announced


def notifications_resend(*, older_than_seconds: int = 60, now=None) -> int:
    """Send again what a broker outage or a lost worker left behind: undispatched events,
    untried deliveries, retries overdue by more than ``older_than_seconds``, and immediate
    e-mails not sent (a failed send, within ``EMAIL_RESEND_WINDOW``). In-process (no broker)
    this sweep is how failed deliveries are retried."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=older_than_seconds)
    events = list(
        NotificationEvent.objects.filter(
            dispatched_at__isnull=True, created_at__lt=cutoff
        ).values_list("pk", flat=True)[:500]
    )
    for event_id in events:
        enqueue_dispatch(event_id)
    deliveries = list(
        WebhookDelivery.objects.filter(
            Q(attempts=0, created_at__lt=cutoff) | Q(next_attempt_at__lt=cutoff),
            status=WebhookDelivery.Status.PENDING,
            webhook__active=True,
        ).values_list("pk", flat=True)[:500]
    )
    deliveries_enqueue(deliveries)
    # Immediate e-mails whose send failed (or whose worker was lost before sending them).
    emails = email_send_immediate(emails_unsent(older_than=cutoff, since=now - EMAIL_RESEND_WINDOW))
    return len(events) + len(deliveries) + emails
