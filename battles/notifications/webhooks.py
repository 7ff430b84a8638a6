"""Webhooks: the payload of an event, signed delivery with backoff, and the organiser's writes.

A delivery row is unique per ``(webhook, event, key)``; the delivery task is queued by its
registered name, so this module never imports the tasks module (tasks import services).
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import re
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from annuminas.tasks import enqueue_safely
from battles.common import access
from battles.models import Campaign
from battles.models.notifications import (
    Event,
    NotificationEvent,
    Webhook,
    WebhookDelivery,
    new_secret,
)

from . import messages, urlguard
from .messages import link_path, site_url
from .outbox import notify

DELIVER_TASK = "battles.webhook_deliver"

# A webhook is switched off after this many failed attempts in a row (any success resets it).
WEBHOOK_DISABLE_AFTER = getattr(settings, "WEBHOOK_DISABLE_AFTER", 10)
# One delivery is tried this many times, waiting BACKOFF_BASE · 2^(attempt-1) s between tries.
WEBHOOK_MAX_ATTEMPTS = getattr(settings, "WEBHOOK_MAX_ATTEMPTS", 5)
WEBHOOK_BACKOFF_BASE = getattr(settings, "WEBHOOK_BACKOFF_BASE", 30)
WEBHOOK_BACKOFF_MAX = 3600
WEBHOOK_TIMEOUT = getattr(settings, "WEBHOOK_TIMEOUT", 10)
SIGNATURE_HEADER = "X-Annuminas-Signature"
MAX_WEBHOOKS_PER_CAMPAIGN = 10
# Events a webhook announces (the organiser's own alerts stay in the inbox).
WEBHOOK_EVENTS = frozenset(Event.values) - {Event.WEBHOOK_DISABLED}


# Characters Discord reads as Markdown (links, emphasis, quotes, headings, lists, spoilers,
# code, mentions and custom emoji), escaped with a backslash in player text.
DISCORD_MARKDOWN = re.compile(r"([\\*_~`>|#\[\]()<\-:])")
ZERO_WIDTH_SPACE = "\u200b"


def discord_text(value: str) -> str:
    """Player text (a warband's, campaign's or player's name…) made inert for Discord: every
    Markdown character escaped, so ``[click me](https://evil.example)`` is shown as typed and is
    no link; a bare URL broken so it is neither a link nor a preview; ``@everyone`` and
    ``@here`` shown without pinging (``allowed_mentions`` stops pings too); one line."""
    value = " ".join(str(value).split())
    value = DISCORD_MARKDOWN.sub(r"\\\1", value)
    value = value.replace("//", "/" + ZERO_WIDTH_SPACE + "/")
    return re.sub(r"@(everyone|here)", "@" + ZERO_WIDTH_SPACE + r"\1", value, flags=re.IGNORECASE)


def _discord_details(details: dict) -> dict:
    """The event's details with every piece of text made inert (ids, slugs and the ISO times
    the message formats itself stay as they are)."""
    return {
        key: discord_text(value)
        if isinstance(value, str) and not key.endswith(("_id", "_slug", "_at"))
        else value
        for key, value in details.items()
    }


def webhook_payload(webhook_format: str, event: str, key: str, details: dict) -> dict:
    """The body for one event: our JSON, or a Discord ``execute webhook`` message."""
    discord = webhook_format == Webhook.Format.DISCORD
    with translation.override(settings.LANGUAGE_CODE):
        text = messages.render(event, _discord_details(details) if discord else details)
        title = messages.label(event)
    url = site_url(link_path(details))
    now = timezone.now().isoformat()
    if discord:
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


def deliveries_create(outbox: NotificationEvent, details: dict) -> list[int]:
    """One pending delivery per active webhook of the event's campaign; returns their ids."""
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


def deliveries_enqueue(delivery_ids: list[int]) -> None:
    """Queue one delivery task each (the sweeper re-sends them if the broker is down)."""
    for delivery_id in delivery_ids:
        enqueue_safely(DELIVER_TASK, delivery_id)


def signature(secret: str, body: bytes) -> str:
    """``sha256=<hex>``: HMAC-SHA256 of the raw body with the webhook's secret."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def backoff(attempts: int) -> int:
    """Seconds before try ``attempts + 1``: 30, 60, 120, 240… capped at an hour."""
    return min(WEBHOOK_BACKOFF_BASE * 2 ** max(attempts - 1, 0), WEBHOOK_BACKOFF_MAX)


def _post(webhook: Webhook, delivery: WebhookDelivery) -> tuple[int | None, str]:
    body = json.dumps(delivery.payload, ensure_ascii=False, separators=(",", ":")).encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Annuminas-Webhook/1",
        "X-Annuminas-Event": delivery.event,
        "X-Annuminas-Delivery": str(delivery.pk),
        SIGNATURE_HEADER: signature(webhook.secret, body),
    }
    try:
        code = urlguard.post(webhook.url, body=body, headers=headers, timeout=WEBHOOK_TIMEOUT)
    except urlguard.AddressRefused as error:
        return None, f"refused: {error}"[:500]
    except (OSError, ValueError, http.client.HTTPException) as error:
        return None, f"{type(error).__name__}: {error}"[:500]
    return code, "" if 200 <= code < 300 else f"HTTP {code}"


@dataclass
class Attempt:
    delivery_id: int
    status: str
    attempts: int
    retry: bool


# How long a claimed delivery is left to its poster before the sweeper may try it again.
WEBHOOK_CLAIM_LEASE = WEBHOOK_TIMEOUT + 30


def webhook_delivery_attempt(*, delivery_id: int) -> Attempt:
    """POST one pending delivery once, if it is due, and record the outcome.

    Three steps, and the HTTP call holds no lock and no transaction: (1) claim the delivery
    under its row lock (count the attempt and lease it: ``next_attempt_at`` moves past the
    request's timeout, so a duplicate task finds it not due and posts nothing); (2) post;
    (3) record the outcome under the lock again. A failed try sets ``next_attempt_at``
    (exponential backoff); the task retries then, and the sweeper catches up with retries a
    lost worker never made (a worker lost mid-post leaves the lease to run out). After
    ``WEBHOOK_DISABLE_AFTER`` failures in a row the webhook is switched off and its campaign's
    organisers told in their inbox.
    """
    claimed = _delivery_claim(delivery_id)
    if isinstance(claimed, Attempt):
        return claimed
    code, error = _post(claimed.webhook, claimed)
    return _delivery_record(claimed, code, error)


@transaction.atomic
def _delivery_claim(delivery_id: int) -> WebhookDelivery | Attempt:
    """The delivery, claimed for one try; or why nothing is to be posted now."""
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
    now = timezone.now()
    if delivery.next_attempt_at and delivery.next_attempt_at > now:
        return Attempt(delivery_id, delivery.status, delivery.attempts, False)  # not due
    delivery.attempts += 1
    delivery.next_attempt_at = now + timedelta(seconds=WEBHOOK_CLAIM_LEASE)
    delivery.save(update_fields=["attempts", "next_attempt_at"])
    return delivery


@transaction.atomic
def _delivery_record(claimed: WebhookDelivery, code: int | None, error: str) -> Attempt:
    """Record the outcome of the claimed try (unless the row moved on meanwhile)."""
    delivery = WebhookDelivery.objects.select_for_update().filter(pk=claimed.pk).first()
    if (
        delivery is None
        or delivery.status != WebhookDelivery.Status.PENDING
        or delivery.attempts != claimed.attempts
    ):
        status = delivery.status if delivery else "gone"
        return Attempt(claimed.pk, status, claimed.attempts, False)
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
        delivery.next_attempt_at = timezone.now() + timedelta(seconds=backoff(delivery.attempts))
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
        webhook.secret = new_secret()
    webhook.save()
    return webhook


@transaction.atomic
def webhook_delete(*, webhook: Webhook, by) -> None:
    _require_organiser(by, webhook.campaign)
    webhook.delete()
