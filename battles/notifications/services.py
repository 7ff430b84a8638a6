"""Writes for notifications: announce an event, fan it out, deliver webhooks, send e-mail.

``notify`` is what the rest of the code calls. Everything after it runs in Celery tasks that take
ids and are idempotent: the outbox row is unique per ``(event, key)``, an inbox row per
``(event, recipient, key)``, a webhook delivery per ``(webhook, event, key)``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from annuminas.tasks import enqueue_safely
from battles import access
from battles.models import Battle, BattleParticipant, Campaign, Membership, Round
from battles.models.notifications import (
    Event,
    Notification,
    NotificationEvent,
    NotificationPreference,
    Webhook,
    WebhookDelivery,
)

from . import messages, urlguard

logger = logging.getLogger(__name__)

# A webhook is switched off after this many failed attempts in a row (any success resets it).
WEBHOOK_DISABLE_AFTER = getattr(settings, "WEBHOOK_DISABLE_AFTER", 10)
# One delivery is tried this many times, waiting BACKOFF_BASE · 2^(attempt-1) s between tries.
WEBHOOK_MAX_ATTEMPTS = getattr(settings, "WEBHOOK_MAX_ATTEMPTS", 5)
WEBHOOK_BACKOFF_BASE = getattr(settings, "WEBHOOK_BACKOFF_BASE", 30)
WEBHOOK_BACKOFF_MAX = 3600
WEBHOOK_TIMEOUT = getattr(settings, "WEBHOOK_TIMEOUT", 10)
SIGNATURE_HEADER = "X-Annuminas-Signature"
ROUND_CLOSING_WINDOW = timedelta(hours=48)
MAX_WEBHOOKS_PER_CAMPAIGN = 10
# Events a webhook announces (the organiser's own alerts stay in the inbox).
WEBHOOK_EVENTS = frozenset(Event.values) - {Event.WEBHOOK_DISABLED}


def site_url(path: str) -> str:
    return getattr(settings, "SITE_URL", "http://localhost:8000").rstrip("/") + path


# --- announcing ----------------------------------------------------------------------------------
def _default_key(campaign_id, round_id, battle_id, params: dict) -> str:
    digest = hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:16]
    return f"c{campaign_id or 0}:r{round_id or 0}:b{battle_id or 0}:{digest}"


def notify(
    *,
    event: str,
    campaign: Campaign | None = None,
    round: Round | None = None,
    battle: Battle | None = None,
    params: dict[str, Any] | None = None,
    recipients: list[int] | None = None,
    actor=None,
    key: str | None = None,
) -> NotificationEvent | None:
    """Announce ``event`` once the caller's transaction commits (nothing if it rolls back).

    ``campaign`` is taken from the battle or round when not given. ``params`` are JSON details
    shown in the sentence (names are filled in by the fan-out). ``recipients`` (user ids)
    replaces the event's usual readers; ``actor`` is left out of them. ``key`` tells two
    occurrences apart (default: a digest of the ids and params), so the same announcement made
    twice is recorded once. Returns the outbox row, or None if it was already recorded.
    """
    if event not in Event.values:
        raise ValueError(f"unknown notification event {event!r}")
    params = dict(params or {})
    if actor is not None and getattr(actor, "pk", None):
        params.setdefault("actor_id", actor.pk)
        params.setdefault("actor", actor.get_username())
    if campaign is None:
        campaign = battle.campaign if battle is not None else round.campaign if round else None
    if round is None and battle is not None and battle.round_id:
        round = battle.round
    json.dumps(params)  # JSON only: fail here, in the caller's code, not in the worker
    key = key or _default_key(
        campaign.pk if campaign else None,
        round.pk if round else None,
        battle.pk if battle else None,
        params,
    )
    try:
        with transaction.atomic():
            outbox = NotificationEvent.objects.create(
                event=event,
                key=key[:200],
                campaign=campaign,
                round=round,
                battle=battle,
                params=params,
                recipient_ids=[int(r) for r in recipients] if recipients is not None else None,
            )
    except IntegrityError:
        return None
    transaction.on_commit(lambda: _enqueue_dispatch(outbox.pk))
    return outbox


def _enqueue_dispatch(event_id: int) -> None:
    from .tasks import notification_dispatch_task

    enqueue_safely(notification_dispatch_task, event_id)


def decisions_waiting_notify(*, run) -> int:
    """Tell each owner who has open post-battle decisions from ``run`` (once per new decision).

    Call it where a run's decisions are created (in the same transaction). Returns the number
    of owners told.
    """
    from battles.models import PendingDecision

    rows = (
        PendingDecision.objects.filter(result__run=run, status=PendingDecision.Status.OPEN)
        .values("warband_id", "warband__owner_id")
        .annotate(count=Count("pk"), last=Max("pk"))
        .order_by("warband_id")
    )
    told = 0
    for row in rows:
        told += bool(
            notify(
                event=Event.DECISION_WAITING,
                battle=run.battle,
                recipients=[row["warband__owner_id"]],
                params={
                    "run_id": run.pk,
                    "warband_id": row["warband_id"],
                    "decisions": row["count"],
                    "last_decision_id": row["last"],
                },
            )
        )
    return told


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
    if event in (Event.POSTBATTLE_APPLIED, Event.DECISION_WAITING) and battle is not None:
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


def link_path(notification_or_details: Any) -> str:
    """Where the reader goes to act on it."""
    from django.urls import reverse

    params = getattr(notification_or_details, "params", notification_or_details)
    if params.get("decision_id"):
        return reverse("decision-answer", kwargs={"pk": params["decision_id"]})
    if params.get("run_id") and params.get("battle_id"):
        return reverse("battle-postbattle", kwargs={"pk": params["battle_id"]})
    if params.get("job_id"):
        return reverse("job-detail", kwargs={"pk": params["job_id"]})
    if params.get("battle_id"):
        return reverse("battle-detail", kwargs={"pk": params["battle_id"]})
    if params.get("webhook_id") and params.get("campaign_slug"):
        return reverse("campaign-webhooks", kwargs={"slug": params["campaign_slug"]})
    if params.get("campaign_slug"):
        return reverse("campaign-detail", kwargs={"slug": params["campaign_slug"]})
    return reverse("notification-inbox")


@dataclass
class Dispatched:
    event_id: int
    notifications: int
    emails: int
    deliveries: list[int]


@transaction.atomic
def notification_event_dispatch(*, event_id: int) -> Dispatched:
    """Fan one outbox row out: inbox rows, immediate e-mails, webhook deliveries.

    Holds the outbox row's lock; a second run finds it dispatched and does nothing, and the
    unique constraints keep even a forced re-run from writing twice.
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
    emails = _email_immediately(outbox)
    deliveries = _webhook_deliveries(outbox, details)
    outbox.dispatched_at = timezone.now()
    outbox.save(update_fields=["dispatched_at"])
    transaction.on_commit(lambda: _enqueue_deliveries(deliveries))
    return Dispatched(outbox.pk, len(created), emails, deliveries)


def _preference(user) -> NotificationPreference:
    preference = getattr(user, "notification_preference", None)
    return preference or NotificationPreference(user=user, email_events=list(Event.values))


def _email(user, notifications: list[Notification], language: str) -> None:
    with translation.override(language):
        lines = [
            f"• {messages.render(n.event, n.params)}\n  {site_url(link_path(n))}"
            for n in notifications
        ]
        if len(notifications) == 1:
            subject = messages.render(notifications[0].event, notifications[0].params)
        else:
            subject = _("Your daily digest: %(count)s notifications") % {
                "count": len(notifications)
            }
        footer = _("Choose which e-mails you get: %(url)s") % {
            "url": site_url("/notifications/preferences/")
        }
        send_mail(
            subject=f"[Annúminas] {subject}"[:200],
            message="\n\n".join(lines) + "\n\n-- \n" + footer,
            from_email=None,
            recipient_list=[user.email],
        )


def _email_immediately(outbox: NotificationEvent) -> int:
    pending = list(
        Notification.objects.select_for_update(of=("self",))
        .filter(event=outbox.event, key=outbox.key, emailed_at__isnull=True)
        .select_related("recipient__notification_preference")
        .exclude(recipient__email="")
    )
    sent = 0
    for notification in pending:
        preference = _preference(notification.recipient)
        if preference.email_mode != NotificationPreference.Mode.IMMEDIATE:
            continue
        if notification.event not in preference.email_events:
            continue
        _email(notification.recipient, [notification], preference.language)
        notification.emailed_at = timezone.now()
        notification.save(update_fields=["emailed_at"])
        sent += 1
    return sent


# --- webhooks ------------------------------------------------------------------------------------
def webhook_payload(webhook_format: str, event: str, key: str, details: dict) -> dict:
    """The body for one event: our JSON, or a Discord ``execute webhook`` message."""
    with translation.override(settings.LANGUAGE_CODE):
        text = messages.render(event, details)
        title = messages.label(event)
    url = site_url(link_path(details))
    now = timezone.now().isoformat()
    if webhook_format == Webhook.Format.DISCORD:
        return {
            "username": "Annúminas",
            "content": text[:2000],
            "allowed_mentions": {"parse": []},  # a warband named "@everyone" pings nobody
            "embeds": [
                {"title": title[:256], "description": text[:4096], "url": url, "timestamp": now}
            ],
        }
    public = {k: v for k, v in details.items() if k != "actor_id"}
    return {
        "event": event,
        "id": key,
        "created": now,
        "message": text,
        "url": url,
        "campaign": {"slug": details.get("campaign_slug"), "name": details.get("campaign")},
        "data": public,
    }


def _webhook_deliveries(outbox: NotificationEvent, details: dict) -> list[int]:
    if outbox.event not in WEBHOOK_EVENTS or not outbox.campaign_id:
        return []
    webhooks = list(Webhook.objects.filter(campaign_id=outbox.campaign_id, active=True))
    WebhookDelivery.objects.bulk_create(
        [
            WebhookDelivery(
                webhook=webhook,
                event=outbox.event,
                key=outbox.key,
                payload=webhook_payload(webhook.format, outbox.event, outbox.key, details),
            )
            for webhook in webhooks
        ],
        ignore_conflicts=True,
    )
    return list(
        WebhookDelivery.objects.filter(
            webhook__in=webhooks,
            event=outbox.event,
            key=outbox.key,
            status=WebhookDelivery.Status.PENDING,
        ).values_list("pk", flat=True)
    )


def _enqueue_deliveries(delivery_ids: list[int]) -> None:
    from .tasks import webhook_deliver_task

    for delivery_id in delivery_ids:
        enqueue_safely(webhook_deliver_task, delivery_id)


def signature(secret: str, body: bytes) -> str:
    """``sha256=<hex>``: HMAC-SHA256 of the raw body with the webhook's secret."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def backoff(attempts: int) -> int:
    """Seconds before try ``attempts + 1``: 30, 60, 120, 240… capped at an hour."""
    return min(WEBHOOK_BACKOFF_BASE * 2 ** max(attempts - 1, 0), WEBHOOK_BACKOFF_MAX)


def _post(webhook: Webhook, delivery: WebhookDelivery) -> tuple[int | None, str]:
    body = json.dumps(delivery.payload, ensure_ascii=False, separators=(",", ":")).encode()
    request = urllib.request.Request(  # noqa: S310 - urlguard checks the scheme and address
        webhook.url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "Annuminas-Webhook/1",
            "X-Annuminas-Event": delivery.event,
            "X-Annuminas-Delivery": str(delivery.pk),
            SIGNATURE_HEADER: signature(webhook.secret, body),
        },
    )
    try:
        with urlguard.open_checked(request, timeout=WEBHOOK_TIMEOUT) as response:
            return response.status, ""
    except urllib.error.HTTPError as error:
        return error.code, f"HTTP {error.code}"
    except urlguard.AddressRefused as error:
        return None, f"refused: {error}"[:500]
    except urllib.error.URLError as error:
        if isinstance(error.reason, urlguard.AddressRefused):
            return None, f"refused: {error.reason}"[:500]
        return None, f"URLError: {error.reason}"[:500]
    except (OSError, ValueError) as error:
        return None, f"{type(error).__name__}: {error}"[:500]


@dataclass
class Attempt:
    delivery_id: int
    status: str
    attempts: int
    retry: bool


def webhook_delivery_attempt(*, delivery_id: int) -> Attempt:
    """POST one pending delivery once, if it is due, and record the outcome.

    A failed try sets ``next_attempt_at`` (exponential backoff); the task retries then, and the
    sweeper catches up with retries a lost worker never made. A try that is not due yet (a
    duplicate) does nothing.

    The delivery row is locked for the request, so a duplicate task never posts twice at once;
    the webhook row is locked only to count the failure. After ``WEBHOOK_DISABLE_AFTER`` failures
    in a row the webhook is switched off and its campaign's organisers told in their inbox.
    """
    with transaction.atomic():
        delivery = (
            WebhookDelivery.objects.select_for_update(of=("self",))
            .select_related("webhook")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None or delivery.status != WebhookDelivery.Status.PENDING:
            return Attempt(delivery_id, delivery.status if delivery else "gone", 0, False)
        if not delivery.webhook.active:
            return Attempt(delivery_id, delivery.status, delivery.attempts, False)
        if delivery.next_attempt_at and delivery.next_attempt_at > timezone.now():
            return Attempt(delivery_id, delivery.status, delivery.attempts, False)  # not due
        code, error = _post(delivery.webhook, delivery)
        delivery.attempts += 1
        delivery.response_code = code
        ok = code is not None and 200 <= code < 300
        delivery.error = "" if ok else error or f"HTTP {code}"
        delivery.next_attempt_at = None
        if ok:
            delivery.status = WebhookDelivery.Status.SENT
            delivery.delivered_at = timezone.now()
        elif delivery.attempts >= WEBHOOK_MAX_ATTEMPTS:
            delivery.status = WebhookDelivery.Status.FAILED
        else:
            delivery.next_attempt_at = timezone.now() + timedelta(
                seconds=backoff(delivery.attempts)
            )
        delivery.save()
        webhook = Webhook.objects.select_for_update().get(pk=delivery.webhook_id)
        if ok:
            if webhook.consecutive_failures:
                webhook.consecutive_failures = 0
                webhook.save(update_fields=["consecutive_failures"])
        else:
            _count_failure(webhook, delivery.error)
        retry = delivery.status == WebhookDelivery.Status.PENDING and webhook.active
        return Attempt(delivery.pk, delivery.status, delivery.attempts, retry)


def _count_failure(webhook: Webhook, error: str) -> None:
    webhook.consecutive_failures += 1
    fields = ["consecutive_failures"]
    if webhook.active and webhook.consecutive_failures >= WEBHOOK_DISABLE_AFTER:
        webhook.active = False
        webhook.disabled_note = error[:300]
        fields += ["active", "disabled_note"]
        notify(
            event=Event.WEBHOOK_DISABLED,
            campaign=webhook.campaign,
            params={
                "webhook_id": webhook.pk,
                "url": webhook.url,
                "failures": webhook.consecutive_failures,
                "error": error[:300],
            },
            key=f"webhook:{webhook.pk}:{timezone.now().isoformat()}",
        )
    webhook.save(update_fields=fields)


def _require_organiser(user, campaign: Campaign) -> None:
    if not access.is_organiser(user, campaign):
        raise PermissionDenied(_("Only an organiser of this campaign may manage its webhooks."))


@transaction.atomic
def webhook_create(
    *, campaign: Campaign, by, url: str, format: str = Webhook.Format.JSON
) -> Webhook:
    _require_organiser(by, campaign)
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if format not in Webhook.Format.values:
        raise ValidationError({"format": _("Choose JSON or Discord.")})
    url = urlguard.webhook_url_check(url)
    if campaign.webhooks.count() >= MAX_WEBHOOKS_PER_CAMPAIGN:
        raise ValidationError(
            _("A campaign has at most %(count)s webhooks.") % {"count": MAX_WEBHOOKS_PER_CAMPAIGN}
        )
    return Webhook.objects.create(campaign=campaign, url=url, format=format, created_by=by)


@transaction.atomic
def webhook_update(
    *,
    webhook: Webhook,
    by,
    url: str | None = None,
    format: str | None = None,
    active: bool | None = None,
    rotate_secret: bool = False,
) -> Webhook:
    """Change a webhook; switching it back on clears its failure count and note."""
    _require_organiser(by, webhook.campaign)
    webhook = Webhook.objects.select_for_update().get(pk=webhook.pk)
    if url is not None:
        webhook.url = urlguard.webhook_url_check(url)
    if format is not None:
        if format not in Webhook.Format.values:
            raise ValidationError({"format": _("Choose JSON or Discord.")})
        webhook.format = format
    if active is not None:
        if active and not webhook.active:
            webhook.consecutive_failures = 0
            webhook.disabled_note = ""
        webhook.active = active
    if rotate_secret:
        from battles.models.notifications import new_secret

        webhook.secret = new_secret()
    webhook.save()
    return webhook


@transaction.atomic
def webhook_delete(*, webhook: Webhook, by) -> None:
    _require_organiser(by, webhook.campaign)
    webhook.delete()


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


# --- periodic work -------------------------------------------------------------------------------
def notifications_digest_send(*, now=None) -> int:
    """E-mail each digest reader what he has not been e-mailed yet; returns e-mails sent.

    Each user's rows are locked and stamped in his own transaction, so a second run the same
    day sends nothing again.
    """
    now = now or timezone.now()
    sent = 0
    preferences = NotificationPreference.objects.filter(
        email_mode=NotificationPreference.Mode.DIGEST
    ).exclude(user__email="")
    for preference_id in preferences.values_list("pk", flat=True):
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
                continue
            _email(preference.user, rows, preference.language)
            Notification.objects.filter(pk__in=[n.pk for n in rows]).update(emailed_at=now)
            preference.last_digest_at = now
            preference.save(update_fields=["last_digest_at"])
            sent += 1
    return sent


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
    untried deliveries, and retries overdue by more than ``older_than_seconds``. In-process
    (no broker) this sweep is how failed deliveries are retried."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=older_than_seconds)
    events = list(
        NotificationEvent.objects.filter(
            dispatched_at__isnull=True, created_at__lt=cutoff
        ).values_list("pk", flat=True)[:500]
    )
    for event_id in events:
        _enqueue_dispatch(event_id)
    deliveries = list(
        WebhookDelivery.objects.filter(
            Q(attempts=0, created_at__lt=cutoff) | Q(next_attempt_at__lt=cutoff),
            status=WebhookDelivery.Status.PENDING,
            webhook__active=True,
        ).values_list("pk", flat=True)[:500]
    )
    _enqueue_deliveries(deliveries)
    return len(events) + len(deliveries)
