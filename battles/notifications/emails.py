"""E-mail: a notification at once, or the daily digest of several, in the reader's language."""

from __future__ import annotations

import logging

from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from battles.models.notifications import (
    Event,
    Notification,
    NotificationPreference,
)

from . import messages
from .messages import link_path, site_url

logger = logging.getLogger(__name__)


def _preference(user) -> NotificationPreference:
    preference = getattr(user, "notification_preference", None)
    return preference or NotificationPreference(user=user, email_events=list(Event.values))


def email_send(user, notifications: list[Notification], language: str) -> None:
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


def _wants_now(notification: Notification) -> NotificationPreference | None:
    """The reader's preference when he wants this event e-mailed at once, else ``None``."""
    preference = _preference(notification.recipient)
    if preference.email_mode != NotificationPreference.Mode.IMMEDIATE:
        return None
    if notification.event not in preference.email_events:
        return None
    return preference


def _email_claim(notification_id: int) -> tuple[Notification, str, object] | None:
    """Stamp one inbox row e-mailed, under its row lock, in its own transaction: whoever
    stamps it sends it. Returns the row, the reader's language and the stamp, or ``None`` when
    it was e-mailed already, is being claimed right now, or is not for e-mail at once."""
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(of=("self",), skip_locked=True)
            .select_related("recipient__notification_preference")
            .filter(pk=notification_id, emailed_at__isnull=True)
            .first()
        )
        if notification is None or not notification.recipient.email:
            return None
        preference = _wants_now(notification)
        if preference is None:
            return None
        stamp = timezone.now()
        notification.emailed_at = stamp
        notification.save(update_fields=["emailed_at"])
    return notification, preference.language, stamp


def email_send_immediate(notification_ids: list[int]) -> int:
    """E-mail these inbox rows to the readers who want them at once; returns e-mails sent.

    Call it outside any transaction (after the fan-out commits): each row is first stamped
    e-mailed in its own committed transaction, then the e-mail goes out with no transaction or
    lock held. A duplicate task finds the rows stamped and sends nothing, and a rollback can
    no longer send one twice: at most one e-mail per row. A send that fails takes its stamp
    back, so the resend sweep tries it again (a worker killed between stamp and send loses
    that e-mail rather than sending it twice).
    """
    sent = 0
    for notification_id in notification_ids:
        claimed = _email_claim(notification_id)
        if claimed is None:
            continue
        notification, language, stamp = claimed
        try:
            email_send(notification.recipient, [notification], language)
        except Exception:
            Notification.objects.filter(pk=notification.pk, emailed_at=stamp).update(
                emailed_at=None
            )
            logger.exception("e-mail of notification %s failed", notification.pk)
            continue
        sent += 1
    return sent


def emails_unsent(*, older_than, since) -> list[int]:
    """Inbox rows from ``since`` to ``older_than`` not e-mailed yet whose readers want e-mail at
    once (no preference set means at once): what a failed send or a lost worker left."""
    return list(
        emails_due()
        .filter(created_at__lt=older_than, created_at__gte=since)
        .order_by("pk")
        .values_list("pk", flat=True)[:500]
    )


def emails_due():
    """Inbox rows not e-mailed yet, of readers with an address who want e-mail at once (no
    preference set means at once); ``email_send_immediate`` checks each one's events."""
    return Notification.objects.filter(
        Q(recipient__notification_preference__isnull=True)
        | Q(recipient__notification_preference__email_mode=NotificationPreference.Mode.IMMEDIATE),
        emailed_at__isnull=True,
    ).exclude(recipient__email="")
