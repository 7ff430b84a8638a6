"""A round's dates: the day it starts (``starts_on``) and its deadline (``closes_at``).

Both are optional. ``round_dates_check`` is the one rule the page's form, the API's serializer
and the service share; ``round_schedule`` writes them. The round-closing notice
(``rounds_closing_notify``) and the calendars read them.
"""

from __future__ import annotations

from datetime import date, datetime, time

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from battles.common import access
from battles.models import Campaign, Round

from .rounds import round_open

# Dates outside these years are typing mistakes (and iCal clients choke on some of them).
FIRST_YEAR, LAST_YEAR = 2000, 2200


def round_dates_check(
    *,
    starts_on: date | None,
    closes_at: datetime | None,
    previous_closes_at: datetime | None = None,
    now: datetime | None = None,
) -> None:
    """Raise ``ValidationError`` (by field) unless the dates make sense together.

    The deadline falls after the start of the day the round starts (in the site's time zone),
    and a new deadline is not already past (one left unchanged may be).
    """
    errors: dict[str, str] = {}
    for field, value in (("starts_on", starts_on), ("closes_at", closes_at)):
        if value is not None and not FIRST_YEAR <= value.year <= LAST_YEAR:
            errors[field] = _("Give a date between %(first)s and %(last)s.") % {
                "first": FIRST_YEAR,
                "last": LAST_YEAR,
            }
    if closes_at is not None and "closes_at" not in errors:
        if timezone.is_naive(closes_at):
            closes_at = timezone.make_aware(closes_at)
        now = now or timezone.now()
        if closes_at != previous_closes_at and closes_at <= now:
            errors["closes_at"] = _("The deadline has already passed: give a later one.")
        elif starts_on is not None and "starts_on" not in errors:
            start = timezone.make_aware(datetime.combine(starts_on, time.min))
            if closes_at <= start:
                errors["closes_at"] = _("The deadline must fall after the round starts.")
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def round_schedule(
    *, round: Round, by, starts_on: date | None, closes_at: datetime | None
) -> Round:
    """Set (or clear, with None) a round's start day and deadline.

    Organisers only; holds the campaign's row lock, then the round's (the order ``round_close``
    takes them in). A closed round and an archived campaign keep their dates (``Conflict``).
    """
    campaign = round.campaign
    if not access.is_organiser(by, campaign):
        raise PermissionDenied(_("Only an organiser of this campaign may do that."))
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.archived:
        raise Conflict(
            _("This campaign is archived: nothing in it can change."), code="campaign_archived"
        )
    round = Round.objects.select_for_update().get(pk=round.pk)
    if round.status == Round.Status.CLOSED:
        raise Conflict(_("This round is closed: its dates no longer change."), code="round_closed")
    if closes_at is not None and timezone.is_naive(closes_at):
        closes_at = timezone.make_aware(closes_at)
    round_dates_check(starts_on=starts_on, closes_at=closes_at, previous_closes_at=round.closes_at)
    round.starts_on, round.closes_at = starts_on, closes_at
    round.save(update_fields=["starts_on", "closes_at"])
    round.campaign = campaign
    return round


@transaction.atomic
def round_open_scheduled(
    *, campaign: Campaign, by, starts_on: date | None = None, closes_at: datetime | None = None
) -> Round:
    """Open the campaign's next round with its dates, in one transaction: dates that do not
    pass leave no round opened."""
    round = round_open(campaign=campaign, by=by)
    if starts_on is None and closes_at is None:
        return round
    return round_schedule(round=round, by=by, starts_on=starts_on, closes_at=closes_at)
