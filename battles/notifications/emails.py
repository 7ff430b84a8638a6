"""E-mail: a notification at once, or the daily digest of several, in the reader's language."""

from __future__ import annotations

from django.core.mail import send_mail
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from battles.models.notifications import (
    Event,
    Notification,
    NotificationEvent,
    NotificationPreference,
)

from . import messages
from .messages import link_path, site_url


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


def email_send_immediate(outbox: NotificationEvent) -> int:
    """E-mail the outbox row's inbox rows to readers who want e-mail at once (locks those rows)."""
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
        email_send(notification.recipient, [notification], preference.language)
        notification.emailed_at = timezone.now()
        notification.save(update_fields=["emailed_at"])
        sent += 1
    return sent
