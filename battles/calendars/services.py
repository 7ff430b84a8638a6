"""Calendar tokens (writes) and the two feeds (reads)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from battles.common import access
from battles.models import Battle, BattleParticipant, Campaign, Round
from battles.models.notifications import CalendarToken, NotificationPreference, new_calendar_token

from .ical import CalendarEvent, calendar

MAX_BATTLES = 500


def _site(path: str) -> str:
    return getattr(settings, "SITE_URL", "http://localhost:8000").rstrip("/") + path


def _uid(kind: str, pk: int, suffix: str = "") -> str:
    return f"{kind}-{pk}{suffix}@annuminas"


# --- tokens --------------------------------------------------------------------------------------
def calendar_token_get(*, user) -> CalendarToken:
    token, _created = CalendarToken.objects.get_or_create(user=user)
    return token


@transaction.atomic
def calendar_token_rotate(*, user) -> CalendarToken:
    """A new private token: the calendar URLs given out before stop working at once."""
    token, created = CalendarToken.objects.select_for_update().get_or_create(user=user)
    if not created:
        token.token = new_calendar_token()
        token.save(update_fields=["token", "created_at"])
    return token


def calendar_token_user(token: str):
    """The active user a token belongs to, or None."""
    if not token or len(token) > 64:
        return None
    row = CalendarToken.objects.select_related("user").filter(token=token).first()
    if row is None or not row.user.is_active:
        return None
    return row.user


def _language(user) -> str:
    preference = NotificationPreference.objects.filter(user=user).only("language").first()
    return preference.language if preference else settings.LANGUAGE_CODE


# --- feeds ---------------------------------------------------------------------------------------
def _round_events(campaign: Campaign, round: Round) -> list[CalendarEvent]:
    title = _("%(campaign)s · round %(number)s") % {
        "campaign": campaign.name,
        "number": round.number,
    }
    url = _site(campaign.get_absolute_url())
    start = round.starts_on or timezone.localdate(round.opened_at)
    if round.closes_at:
        end = timezone.localdate(round.closes_at) + dt.timedelta(days=1)
    elif round.closed_at:
        end = timezone.localdate(round.closed_at) + dt.timedelta(days=1)
    else:
        end = None
    status = round.get_status_display()
    events = [
        CalendarEvent(
            uid=_uid("round", round.pk),
            summary=title,
            start=start,
            end=end,
            description=_("Round %(number)s (%(status)s).")
            % {
                "number": round.number,
                "status": status,
            },
            url=url,
        )
    ]
    if round.closes_at:
        events.append(
            CalendarEvent(
                uid=_uid("round", round.pk, "-deadline"),
                summary=_("%(campaign)s · round %(number)s: deadline for reports")
                % {"campaign": campaign.name, "number": round.number},
                start=round.closes_at,
                description=_("Report and confirm your battles of this round before then."),
                url=url,
            )
        )
    return events


def campaign_feed(*, user, slug: str) -> bytes | None:
    """The campaign's rounds, if ``user`` may see the campaign; None otherwise."""
    campaign = access.visible_campaigns(user).filter(slug=slug).first()
    if campaign is None:
        return None
    with translation.override(_language(user)):
        events = [
            event
            for round in campaign.rounds.order_by("number")
            for event in _round_events(campaign, round)
        ]
        return calendar(name=campaign.name, events=events)


def _battle_event(battle: Battle) -> CalendarEvent:
    names = [p.warband.name for p in battle.participants.all()]
    summary = _("%(campaign)s: %(sides)s") % {
        "campaign": battle.campaign.name,
        "sides": " vs ".join(names),
    }
    lines = [_("Status: %(status)s.") % {"status": battle.get_status_display()}]
    if battle.scenario:
        lines.append(_("Scenario: %(scenario)s.") % {"scenario": battle.scenario})
    if battle.round_id:
        lines.append(_("Round %(number)s.") % {"number": battle.round.number})
    if battle.reported_at:
        start: dt.date | dt.datetime = timezone.localdate(battle.reported_at)
    elif battle.round_id and battle.round.closes_at:
        start = battle.round.closes_at
        lines.append(_("To be played and reported by then."))
    elif battle.round_id and battle.round.starts_on:
        start = battle.round.starts_on
    else:
        start = timezone.localdate(battle.created_at)
    return CalendarEvent(
        uid=_uid("battle", battle.pk),
        summary=summary,
        start=start,
        description="\n".join(lines),
        url=_site(battle.get_absolute_url()),
        last_modified=battle.updated_at,
    )


def user_feed(*, user) -> bytes:
    """The user's battles (his warbands' ones), newest first, at most ``MAX_BATTLES``."""
    battles = (
        Battle.objects.filter(participants__warband__owner=user, is_bye=False)
        .distinct()
        .select_related("campaign", "round")
        .prefetch_related(
            Prefetch(
                "participants",
                queryset=BattleParticipant.objects.select_related("warband").order_by("id"),
            )
        )
        .order_by("-created_at", "-id")[:MAX_BATTLES]
    )
    with translation.override(_language(user)):
        return calendar(
            name=_("Battles of %(user)s") % {"user": user.get_username()},
            events=[_battle_event(battle) for battle in battles],
        )
