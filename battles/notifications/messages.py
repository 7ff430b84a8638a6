"""What each event says, rendered in the reader's language when shown (never stored as text),
and where its reader goes to act on it."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

from battles.models.notifications import Event

MESSAGES = {
    Event.PAIRINGS_PUBLISHED: _("%(campaign)s: the pairings of round %(round)s are published."),
    Event.REPORT_TO_CONFIRM: _("%(campaign)s: %(battle)s was reported; confirm or dispute it."),
    Event.REPORT_DISPUTED: _("%(campaign)s: the report of %(battle)s is disputed."),
    Event.REPORT_WITHDRAWN: _(
        "%(campaign)s: the entry that finished %(battle)s was struck out; its report is "
        "withdrawn and the battle goes on."
    ),
    Event.POSTBATTLE_APPLIED: _("%(campaign)s: the post-battle sequence of %(battle)s is applied."),
    Event.DECISION_WAITING: _("%(campaign)s: a post-battle decision waits for you (%(battle)s)."),
    Event.ROUND_CLOSING: _("%(campaign)s: round %(round)s closes on %(closes_at)s."),
    Event.JOB_FAILED: _("%(campaign)s: a batch job failed (%(failed)s battles)."),
    Event.WEBHOOK_DISABLED: _(
        "%(campaign)s: the webhook %(url)s was disabled after %(failures)s failures in a row."
    ),
}
# A failed job that resolves no battles: the standings recomputed after a change of scoring.
STANDINGS_JOB_FAILED = _(
    "%(campaign)s: recomputing the standings after the change of scoring failed; the table "
    "may be out of date."
)


def render(event: str, params: dict[str, Any]) -> str:
    """The sentence for ``event`` in the active language; a missing detail shows as "—"."""
    template = MESSAGES.get(event)
    if event == Event.JOB_FAILED and params.get("kind") == "standings":
        template = STANDINGS_JOB_FAILED
    if template is None:
        return str(Event(event).label) if event in Event.values else event
    values: defaultdict[str, Any] = defaultdict(lambda: "—")
    values.update({k: v for k, v in params.items() if v not in (None, "")})
    when = parse_datetime(str(params.get("closes_at") or ""))
    if when is not None:
        values["closes_at"] = formats.date_format(timezone.localtime(when), "DATETIME_FORMAT")
    if params.get("battle_id") and not params.get("battle"):
        values["battle"] = _("battle %(id)s") % {"id": params["battle_id"]}
    return str(template) % values


def label(event: str) -> str:
    return str(Event(event).label) if event in Event.values else event


def site_url(path: str) -> str:
    return getattr(settings, "SITE_URL", "http://localhost:8000").rstrip("/") + path


def link_path(notification_or_details: Any) -> str:
    """Where the reader goes to act on it."""
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
