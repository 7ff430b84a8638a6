"""Writes for notifications: announce an event, fan it out, deliver webhooks, send e-mail.

``notify`` is what the rest of the code calls. Everything after it runs in Celery tasks that take
ids and are idempotent: the outbox row is unique per ``(event, key)``, an inbox row per
``(event, recipient, key)``, a webhook delivery per ``(webhook, event, key)``.

This module is the package's public surface: it holds the fan-out and the reader's writes and
re-exports the rest, by responsibility: ``outbox`` (announcing), ``emails``, ``webhooks``
(payload, signed delivery, the organiser's writes), ``periodic`` (digest, rounds closing,
resend sweep), ``messages`` (sentences and links). The tasks module imports these; they queue
tasks by name and never import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.models import Battle, BattleParticipant, Campaign, Membership
from battles.models.notifications import (
    Event,
    Notification,
    NotificationEvent,
    NotificationPreference,
)

from . import messages
from .emails import email_send_immediate, emails_due
from .messages import link_path, site_url
from .outbox import decisions_waiting_notify, notify
from .periodic import (
    ROUND_CLOSING_WINDOW,
    notifications_digest_send,
    notifications_resend,
    rounds_closing_notify,
)
from .webhooks import (
    MAX_WEBHOOKS_PER_CAMPAIGN,
    SIGNATURE_HEADER,
    WEBHOOK_BACKOFF_BASE,
    WEBHOOK_BACKOFF_MAX,
    WEBHOOK_DISABLE_AFTER,
    WEBHOOK_EVENTS,
    WEBHOOK_MAX_ATTEMPTS,
    WEBHOOK_TIMEOUT,
    Attempt,
    backoff,
    deliveries_create,
    deliveries_enqueue,
    signature,
    webhook_create,
    webhook_delete,
    webhook_delivery_attempt,
    webhook_payload,
    webhook_update,
)

__all__ = [
    "MAX_WEBHOOKS_PER_CAMPAIGN",
    "ROUND_CLOSING_WINDOW",
    "SIGNATURE_HEADER",
    "WEBHOOK_BACKOFF_BASE",
    "WEBHOOK_BACKOFF_MAX",
    "WEBHOOK_DISABLE_AFTER",
    "WEBHOOK_EVENTS",
    "WEBHOOK_MAX_ATTEMPTS",
    "WEBHOOK_TIMEOUT",
    "Attempt",
    "Dispatched",
    "PermissionDenied",
    "ValidationError",
    "backoff",
    "decisions_waiting_notify",
    "link_path",
    "messages",
    "notification_event_dispatch",
    "notification_mark_read",
    "notification_preference_set",
    "notifications_digest_send",
    "notifications_resend",
    "notify",
    "rounds_closing_notify",
    "signature",
    "site_url",
    "webhook_create",
    "webhook_delete",
    "webhook_delivery_attempt",
    "webhook_payload",
    "webhook_update",
]


# --- fan-out -------------------------------------------------------------------------------------
def _organiser_ids(campaign: Campaign) -> set[int]:
    return set(
        campaign.memberships.filter(role=Membership.Role.ORGANISER).values_list(
            "user_id", flat=True
        )
    )


def _player_ids(campaign: Campaign) -> set[int]:
    return set(
        campaign.memberships.filter(active=True, warband__isnull=False).values_list(
            "user_id", flat=True
        )
    )


def _battle_owner_ids(battles) -> set[int]:
    return set(
        BattleParticipant.objects.filter(battle__in=battles).values_list(
            "warband__owner_id", flat=True
        )
    )


def _recipients(outbox: NotificationEvent) -> set[int]:
    """The event's usual readers."""
    campaign, battle, round = outbox.campaign, outbox.battle, outbox.round
    event = outbox.event
    if event == Event.PAIRINGS_PUBLISHED:
        if battle is not None:  # one battle set by hand
            return _battle_owner_ids([battle])
        if round is not None:
            return _battle_owner_ids(Battle.objects.filter(round=round))
        return _player_ids(campaign)
    if event == Event.REPORT_TO_CONFIRM and battle is not None:
        return _battle_owner_ids([battle]) - {battle.reported_by_id}
    if event == Event.REPORT_DISPUTED and battle is not None:
        return (_organiser_ids(campaign) | {battle.reported_by_id}) - {None}
    if (
        event in (Event.POSTBATTLE_APPLIED, Event.DECISION_WAITING, Event.REPORT_WITHDRAWN)
        and battle is not None
    ):
        return _battle_owner_ids([battle])
    if event == Event.ROUND_CLOSING and round is not None:
        pending = Battle.objects.filter(round=round).exclude(
            status__in=[Battle.Status.CONFIRMED, Battle.Status.RESOLVED]
        )
        return _battle_owner_ids(pending) | _organiser_ids(campaign)
    if campaign is not None:  # job failed, webhook disabled, anything else: the organisers
        return _organiser_ids(campaign)
    return set()


def _details(outbox: NotificationEvent) -> dict[str, Any]:
    """The names the sentence shows, taken now, plus the caller's params (which win)."""
    details: dict[str, Any] = {}
    if outbox.campaign_id:
        details.update(campaign=outbox.campaign.name, campaign_slug=outbox.campaign.slug)
    if outbox.round_id:
        details["round"] = outbox.round.number
        if outbox.round.closes_at:
            details["closes_at"] = outbox.round.closes_at.isoformat()
    if outbox.battle_id:
        names = outbox.battle.participants.order_by("id").values_list("warband__name", flat=True)
        details.update(battle_id=outbox.battle_id, battle=" vs ".join(names))
    details.update(outbox.params)
    return details


@dataclass
class Dispatched:
    event_id: int
    notifications: int
    emails: int  # inbox rows to e-mail at once, sent after the commit
    deliveries: list[int]


@transaction.atomic
def notification_event_dispatch(*, event_id: int) -> Dispatched:
    """Fan one outbox row out: inbox rows, immediate e-mails, webhook deliveries.

    Holds the outbox row's lock; a second run finds it dispatched and does nothing, and the
    unique constraints keep even a forced re-run from writing twice. Nothing leaves the
    server inside this transaction: the e-mails and the webhook posts go after the commit
    (each e-mail claimed first, ``email_send_immediate``; each delivery by its own task).
    """
    outbox = (
        NotificationEvent.objects.select_for_update(of=("self",))
        .select_related("campaign", "round", "battle")
        .filter(pk=event_id)
        .first()
    )
    if outbox is None or outbox.dispatched_at is not None:
        return Dispatched(event_id, 0, 0, [])
    details = _details(outbox)
    ids = set(outbox.recipient_ids) if outbox.recipient_ids is not None else _recipients(outbox)
    ids.discard(outbox.params.get("actor_id"))
    ids.discard(None)
    users = get_user_model().objects.filter(pk__in=ids, is_active=True)
    if outbox.campaign_id:  # only people who may still see the campaign
        users = users.filter(
            Q(campaign_memberships__campaign_id=outbox.campaign_id) | Q(is_superuser=True)
        ).distinct()
    created = Notification.objects.bulk_create(
        [
            Notification(
                recipient_id=user_id,
                event=outbox.event,
                key=outbox.key,
                params=details,
                campaign_id=outbox.campaign_id,
                battle_id=outbox.battle_id,
            )
            for user_id in users.values_list("pk", flat=True)
        ],
        ignore_conflicts=True,
    )
    emails = list(
        emails_due().filter(event=outbox.event, key=outbox.key).values_list("pk", flat=True)
    )
    deliveries = deliveries_create(outbox, details)
    outbox.dispatched_at = timezone.now()
    outbox.save(update_fields=["dispatched_at"])
    transaction.on_commit(lambda: email_send_immediate(emails))
    transaction.on_commit(lambda: deliveries_enqueue(deliveries))
    return Dispatched(outbox.pk, len(created), len(emails), deliveries)


# --- the reader ----------------------------------------------------------------------------------
def notification_mark_read(*, user, notification_ids: list[int] | None = None) -> int:
    """Mark the user's notifications read (all unread ones when no ids are given)."""
    rows = Notification.objects.filter(recipient=user, read=False)
    if notification_ids is not None:
        rows = rows.filter(pk__in=notification_ids)
    return rows.update(read=True, read_at=timezone.now())


@transaction.atomic
def notification_preference_set(
    *, user, email_mode: str, email_events: list[str], language: str | None = None
) -> NotificationPreference:
    if email_mode not in NotificationPreference.Mode.values:
        raise ValidationError({"email_mode": _("Choose no e-mail, at once, or a daily digest.")})
    unknown = [e for e in email_events if e not in Event.values]
    if unknown:
        raise ValidationError(
            {
                "email_events": _("Unknown events: %(names)s.")
                % {"names": ", ".join(map(str, unknown))[:200]}
            }
        )
    languages = dict(settings.LANGUAGES)
    if language is not None and language not in languages:
        raise ValidationError({"language": _("Choose Spanish or English.")})
    preference, _created = NotificationPreference.objects.select_for_update().get_or_create(
        user=user, defaults={"email_events": list(Event.values)}
    )
    preference.email_mode = email_mode
    preference.email_events = sorted(set(email_events))
    if language is not None:
        preference.language = language
    preference.save()
    return preference
