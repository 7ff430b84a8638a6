"""Reads for the campaign pages and endpoints, each shaped with its own joins and prefetches so
the number of queries does not grow with the number of players or battles."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404

from battles.common import access
from battles.models import Battle, BattleParticipant, Campaign, Membership, Round
from battles.reports.selectors import participants_prefetch
from warbands.models import HiredSword


def campaign_list(*, user, archived: bool = False) -> QuerySet[Campaign]:
    return (
        access.visible_campaigns(user)
        .filter(archived=archived)
        .annotate(
            player_count=Count(
                "memberships",
                filter=Q(memberships__active=True, memberships__warband__isnull=False),
                distinct=True,
            )
        )
        .order_by("-created_at", "-id")
    )


def _memberships() -> Prefetch:
    return Prefetch(
        "memberships",
        queryset=Membership.objects.select_related("user", "warband__warband_type").order_by(
            "role", "joined_at", "id"
        ),
    )


def campaign_detail(*, user, slug: str) -> Campaign:
    """The campaign with members, allowed types, rounds and their battles (fixed queries)."""
    battles = Battle.objects.prefetch_related(participants_prefetch()).order_by("id")
    return get_object_or_404(
        access.visible_campaigns(user).prefetch_related(
            _memberships(),
            "allowed_warband_types",
            Prefetch(
                "rounds",
                queryset=Round.objects.order_by("number").prefetch_related(
                    Prefetch("battles", queryset=battles)
                ),
            ),
        ),
        slug=slug,
    )


def campaign_for_api(*, user, slug: str) -> Campaign:
    return get_object_or_404(
        access.visible_campaigns(user).prefetch_related(_memberships(), "allowed_warband_types"),
        slug=slug,
    )


def players_by_warband(campaign: Campaign) -> dict[int, str]:
    """Each member warband's player (username), for the standings and their CSV; reads the
    memberships the campaign was fetched with — ``campaign_detail`` (pages), ``campaign_for_api``
    and the admin's export prefetch them with their users; without that it reads 1 + N."""
    return {m.warband_id: m.user.username for m in campaign.memberships.all() if m.warband_id}


def campaign_forbidden_swords(campaign: Campaign) -> str | list[str]:
    """``"all"``, or the names of the hired swords the campaign forbids (empty: none)."""
    forbidden = campaign.hired_swords_forbidden
    if forbidden == "all":
        return "all"
    if not forbidden:
        return []
    swords = HiredSword.objects.filter(fighter_type__slug__in=forbidden).select_related(
        "fighter_type"
    )
    return sorted(sword.display_name for sword in swords)


def rating_history(campaign: Campaign) -> tuple[list[int], dict[int, dict[int, int]]]:
    """Round numbers and, per warband, its rating at its battle of each round (one query)."""
    history: dict[int, dict[int, int]] = {}
    numbers: set[int] = set()
    for warband_id, number, rating in BattleParticipant.objects.filter(
        battle__campaign=campaign, battle__round__isnull=False
    ).values_list("warband_id", "battle__round__number", "rating_at_battle"):
        numbers.add(number)
        history.setdefault(warband_id, {})[number] = rating
    return sorted(numbers), history
