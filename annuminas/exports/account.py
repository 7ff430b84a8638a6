"""A player's account as one JSON document (format ``annuminas.account`` version 1).

What it holds: the profile (name, e-mail addresses, dates, notification preferences), every
warband in full (the roster export the warband page offers, with its ledger and notes), the
campaigns joined, the battles his warbands fought (their reports, his warbands' post-battle
results with every die, and the decisions left to him), the battle log entries he wrote, and his
inbox. What it leaves out: credentials (the password hash, API tokens, the calendar and share
tokens) and what belongs to other players (their rosters, their post-battle results).
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone

from battles.models import (
    Battle,
    BattleLogEntry,
    BattleParticipant,
    Membership,
    Notification,
    NotificationPreference,
    PendingDecision,
    PostBattleResult,
)
from warbands.models import Warband
from warbands.services import warband_export

FORMAT = "annuminas.account"
FORMAT_VERSION = 1


def _profile(user) -> dict[str, Any]:
    preference = NotificationPreference.objects.filter(user=user).first()
    return {
        "username": user.get_username(),
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": user.date_joined,
        "last_login": user.last_login,
        "email_addresses": [
            {"email": address.email, "verified": address.verified, "primary": address.primary}
            for address in EmailAddress.objects.filter(user=user).order_by("pk")
        ],
        "notification_preferences": None
        if preference is None
        else {
            "email_events": preference.email_events,
            "email_mode": preference.email_mode,
            "language": preference.language,
        },
    }


def _warbands(user) -> list[dict[str, Any]]:
    return [
        {
            "id": warband.pk,
            "created_at": warband.created_at,
            "imported": warband.imported,
            **warband_export(warband=warband),
        }
        for warband in Warband.objects.filter(owner=user).order_by("pk")
    ]


def _battle(battle: Battle, mine: set[int]) -> dict[str, Any]:
    return {
        "id": battle.pk,
        "campaign": battle.campaign.slug,
        "round": battle.round.number if battle.round else None,
        "scenario": battle.scenario,
        "status": battle.status,
        "bye": battle.is_bye,
        "draw": battle.is_draw,
        "reported_at": battle.reported_at,
        "confirmed_at": battle.confirmed_at,
        "participants": [
            {
                "warband": p.warband_id,
                "name": p.warband.name,
                "player": p.warband.owner.get_username(),
                "mine": p.warband_id in mine,
                "result": p.result,
                "routed": p.routed,
                "rating_at_battle": p.rating_at_battle,
            }
            for p in battle.participants.all()
        ],
        "postbattle": [
            {
                "warband": result.warband_id,
                "run_status": result.run.status,
                "applied_at": result.run.applied_at,
                "steps": result.steps,
                "dice": result.rolls,
                "experience_gained": result.experience_gained,
                "finds_found": result.finds_found,
                "gold_gained": result.gold_gained,
                "decisions": [
                    {
                        "kind": d.kind,
                        "fighter": d.fighter_id,
                        "group": d.group_id,
                        "options": d.options,
                        "choice": d.choice,
                        "status": d.status,
                        "answered_at": d.answered_at,
                    }
                    for d in result.decisions.all()
                    if d.warband_id in mine
                ],
            }
            for run in battle.postbattle_runs.all()
            for result in run.results.all()
            if result.warband_id in mine
        ],
    }


def _battles(user, mine: set[int]) -> list[dict[str, Any]]:
    results = PostBattleResult.objects.filter(warband_id__in=mine).prefetch_related(
        Prefetch("decisions", queryset=PendingDecision.objects.order_by("pk"))
    )
    battles = (
        Battle.objects.filter(participants__warband_id__in=mine)
        .distinct()
        .select_related("campaign", "round")
        .prefetch_related(
            Prefetch(
                "participants",
                queryset=BattleParticipant.objects.select_related("warband__owner").order_by("pk"),
            ),
            Prefetch("postbattle_runs__results", queryset=results),
        )
        .order_by("pk")
    )
    return [_battle(battle, mine) for battle in battles]


def account_export(*, user) -> dict[str, Any]:
    """Everything the site keeps about ``user`` that is his."""
    mine = set(Warband.objects.filter(owner=user).values_list("pk", flat=True))
    memberships = Membership.objects.filter(user=user).select_related("campaign").order_by("pk")
    entries = BattleLogEntry.objects.filter(author=user).order_by("battle_id", "seq")
    notifications = (
        Notification.objects.filter(recipient=user)
        .select_related("campaign")
        .order_by("created_at", "pk")
    )
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": timezone.now(),
        "site": settings.SITE_URL,
        "profile": _profile(user),
        "warbands": _warbands(user),
        "campaigns": [
            {
                "campaign": m.campaign.slug,
                "name": m.campaign.name,
                "role": m.role,
                "warband": m.warband_id,
                "active": m.active,
                "joined_at": m.joined_at,
            }
            for m in memberships
        ],
        "battles": _battles(user, mine),
        "battle_log_entries": [
            {
                "battle": e.battle_id,
                "seq": e.seq,
                "kind": e.kind,
                "payload": e.payload,
                "dice": e.dice,
                "created": e.created,
            }
            for e in entries
        ],
        "notifications": [
            {
                "event": n.event,
                "details": n.params,
                "campaign": n.campaign.slug if n.campaign else None,
                "battle": n.battle_id,
                "read": n.read,
                "read_at": n.read_at,
                "emailed_at": n.emailed_at,
                "created_at": n.created_at,
            }
            for n in notifications
        ],
    }
