"""Reads for the inbox, the preferences page and the webhooks page."""

from __future__ import annotations

from django.db.models import QuerySet

from battles.models import Campaign
from battles.models.notifications import (
    Event,
    Notification,
    NotificationPreference,
    Webhook,
    WebhookDelivery,
)

RECENT_DELIVERIES = 20


def inbox(*, user, unread_only: bool = False) -> QuerySet[Notification]:
    rows = Notification.objects.filter(recipient=user).order_by("-created_at", "-id")
    return rows.filter(read=False) if unread_only else rows


def unread_count(*, user) -> int:
    if not (user and user.is_authenticated):
        return 0
    return Notification.objects.filter(recipient=user, read=False).count()


def preference_for(*, user) -> NotificationPreference:
    """The saved preferences, or the defaults (every event, at once) unsaved."""
    preference = NotificationPreference.objects.filter(user=user).first()
    return preference or NotificationPreference(user=user, email_events=list(Event.values))


def campaign_webhooks(*, campaign: Campaign) -> QuerySet[Webhook]:
    return Webhook.objects.filter(campaign=campaign).order_by("id")


def recent_deliveries(*, campaign: Campaign) -> QuerySet[WebhookDelivery]:
    return (
        WebhookDelivery.objects.filter(webhook__campaign=campaign)
        .select_related("webhook")
        .order_by("-created_at", "-id")[:RECENT_DELIVERIES]
    )
