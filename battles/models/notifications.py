"""Notifications (inbox, e-mail, per-campaign webhooks) and private calendar tokens.

A notification stores its event code and the event's data (``params``), never a rendered
sentence: the inbox, the e-mail and the webhook render it in the reader's language when shown.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .battle import Battle
from .campaign import Campaign, Round


class Event(models.TextChoices):
    PAIRINGS_PUBLISHED = "pairings_published", _("Pairings published")
    REPORT_TO_CONFIRM = "report_to_confirm", _("A report to confirm")
    REPORT_DISPUTED = "report_disputed", _("A report disputed")
    REPORT_WITHDRAWN = "report_withdrawn", _("A report withdrawn: the battle goes on")
    POSTBATTLE_APPLIED = "postbattle_applied", _("Post-battle sequence applied")
    DECISION_WAITING = "decision_waiting", _("A decision waiting")
    ROUND_CLOSING = "round_closing", _("A round closing within 48 hours")
    JOB_FAILED = "job_failed", _("A job failed")
    WEBHOOK_DISABLED = "webhook_disabled", _("A webhook was disabled")


class EventRecord(models.Model):
    """What the outbox and an inbox line both record: the event, its idempotency key, its data,
    and the campaign and battle it concerns."""

    event = models.CharField(_("event"), max_length=32, choices=Event.choices)
    key = models.CharField(_("idempotency key"), max_length=200)
    params = models.JSONField(_("details"), default=dict, blank=True)
    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("campaign"),
    )
    battle = models.ForeignKey(
        Battle,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("battle"),
    )

    class Meta:
        abstract = True


class NotificationEvent(EventRecord):
    """The outbox: written in the caller's transaction, fanned out by a task after the commit.

    A rolled-back transaction takes its events with it; a sweeper re-sends events that a broker
    outage left undispatched. ``(event, key)`` is unique, so announcing the same thing twice
    (a periodic task that runs again) records it once.
    """

    round = models.ForeignKey(
        Round,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("round"),
    )
    recipient_ids = models.JSONField(
        _("recipients"), null=True, blank=True, help_text=_("Empty: the event's usual readers.")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    dispatched_at = models.DateTimeField(_("dispatched at"), null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("notification event")
        verbose_name_plural = _("notification events")
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="notification_event_once")
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.key}"


class Notification(EventRecord):
    """One line of a user's inbox: unique per (event, recipient, key)."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recipient"),
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    read = models.BooleanField(_("read"), default=False)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)
    emailed_at = models.DateTimeField(_("e-mailed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "recipient", "key"], name="notification_once_per_recipient"
            )
        ]
        indexes = [models.Index(fields=["recipient", "read"], name="notification_unread")]

    def __str__(self) -> str:
        return f"{self.recipient} · {self.event} · {self.key}"


class NotificationPreference(models.Model):
    class Mode(models.TextChoices):
        OFF = "off", _("No e-mail")
        IMMEDIATE = "immediate", _("At once")
        DIGEST = "digest", _("A daily digest")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="notification_preference",
    )
    email_events = models.JSONField(
        _("events by e-mail"), default=list, blank=True, help_text=_("Event codes.")
    )
    email_mode = models.CharField(
        _("e-mail"), max_length=10, choices=Mode.choices, default=Mode.IMMEDIATE
    )
    language = models.CharField(
        _("language of the e-mails"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
    )
    last_digest_at = models.DateTimeField(_("last digest"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification preferences")
        verbose_name_plural = _("notification preferences")

    def __str__(self) -> str:
        return f"{self.user} · {self.email_mode}"


def new_secret() -> str:
    return secrets.token_hex(32)


class Webhook(models.Model):
    class Format(models.TextChoices):
        JSON = "json", _("JSON")
        DISCORD = "discord", _("Discord")

    campaign = models.ForeignKey(
        Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(_("URL"), max_length=500)
    format = models.CharField(
        _("format"), max_length=10, choices=Format.choices, default=Format.JSON
    )
    secret = models.CharField(
        _("signing secret"),
        max_length=128,
        default=new_secret,
        help_text=_("Signs each body: header X-Annuminas-Signature: sha256=<HMAC-SHA256 hex>."),
    )
    active = models.BooleanField(_("active"), default=True)
    consecutive_failures = models.PositiveIntegerField(_("consecutive failures"), default=0)
    disabled_note = models.CharField(_("why it was disabled"), max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "id"]
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self) -> str:
        return f"{self.campaign} · {self.url}"


class WebhookDelivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")

    webhook = models.ForeignKey(
        Webhook, verbose_name=_("webhook"), on_delete=models.CASCADE, related_name="deliveries"
    )
    event = models.CharField(_("event"), max_length=32, choices=Event.choices)
    key = models.CharField(_("idempotency key"), max_length=200)
    payload = models.JSONField(_("body"), default=dict)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    response_code = models.PositiveSmallIntegerField(_("response code"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=500, blank=True)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    delivered_at = models.DateTimeField(_("delivered at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        constraints = [
            models.UniqueConstraint(
                fields=["webhook", "event", "key"], name="webhook_delivery_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.webhook_id} · {self.event} · {self.status}"


def new_calendar_token() -> str:
    return secrets.token_urlsafe(24)


class CalendarToken(models.Model):
    """The private part of a user's calendar URLs; rotating it revokes the old URLs."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="calendar_token",
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_calendar_token)
    created_at = models.DateTimeField(_("created at"), auto_now=True)

    class Meta:
        verbose_name = _("calendar token")
        verbose_name_plural = _("calendar tokens")

    def __str__(self) -> str:
        return f"{self.user} · calendar"
