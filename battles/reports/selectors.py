"""Reads of battles for their pages and endpoints, each shaped with its own joins and prefetches
so the number of queries does not grow with the number of players or fighters."""

from __future__ import annotations

from django.db.models import F, Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from battles.common import access
from battles.models import Battle, BattleEvent, BattleParticipant, Membership
from warbands.models import Fighter


def participants_prefetch() -> Prefetch:
    return Prefetch(
        "participants",
        queryset=BattleParticipant.objects.select_related("warband")
        .prefetch_related("fighters")
        .order_by("id"),
    )


def battle_queryset(*, user) -> QuerySet[Battle]:
    return (
        access.visible_battles(user)
        .select_related("campaign", "round", "reported_by", "confirmed_by", "disputed_by")
        .prefetch_related(
            participants_prefetch(),
            Prefetch(
                "campaign__memberships",
                queryset=Membership.objects.filter(role=Membership.Role.ORGANISER),
            ),
        )
        .order_by("campaign_id", F("round__number").asc(nulls_first=True), "id")
    )


def battle_detail(*, user, pk: int) -> Battle:
    participants = BattleParticipant.objects.select_related(
        "warband__warband_type", "warband__owner"
    ).prefetch_related(
        Prefetch("fighters", queryset=Fighter.objects.select_related("fighter_type")),
    )
    events = BattleEvent.objects.select_related(
        "actor", "actor_warband", "target", "target_warband"
    ).order_by("turn", "id")
    return get_object_or_404(
        access.visible_battles(user)
        .select_related("campaign", "round", "reported_by", "confirmed_by", "disputed_by")
        .prefetch_related(
            Prefetch("participants", queryset=participants.order_by("id")),
            Prefetch("events", queryset=events),
            Prefetch(
                "campaign__memberships",
                queryset=Membership.objects.filter(role=Membership.Role.ORGANISER),
            ),
            "corrections__by",
        ),
        pk=pk,
    )


def battle_roster_choices(battle: Battle) -> dict[int, list]:
    """Warband id → its fighters in the roster (for the report form), one query."""
    warband_ids = [p.warband_id for p in battle.participants.all()]
    fighters: dict[int, list] = {w: [] for w in warband_ids}
    for fighter in (
        Fighter.objects.filter(warband_id__in=warband_ids)
        .select_related("fighter_type")
        .order_by("warband_id", "-is_leader", "-is_hero", "id")
    ):
        fighters[fighter.warband_id].append(fighter)
    return fighters
