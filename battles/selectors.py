"""Reads for the campaign pages and endpoints, each shaped with its own joins and prefetches so
the number of queries does not grow with the number of players or battles."""

from __future__ import annotations

from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404

from warbands.models import Fighter, HiredSword

from . import access
from .models import Battle, BattleEvent, BattleParticipant, Campaign, Membership, Round
from .standings import BYE, Outcome, Result


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


def _participants() -> Prefetch:
    return Prefetch(
        "participants",
        queryset=BattleParticipant.objects.select_related("warband")
        .prefetch_related("fighters")
        .order_by("id"),
    )


def campaign_detail(*, user, slug: str) -> Campaign:
    """The campaign with members, allowed types, rounds and their battles (fixed queries)."""
    battles = Battle.objects.prefetch_related(_participants()).order_by("id")
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


def battle_queryset(*, user) -> QuerySet[Battle]:
    return (
        access.visible_battles(user)
        .select_related("campaign", "round", "reported_by", "confirmed_by", "disputed_by")
        .prefetch_related(
            _participants(),
            Prefetch(
                "campaign__memberships",
                queryset=Membership.objects.filter(role=Membership.Role.ORGANISER),
            ),
        )
        .order_by("campaign_id", F("round__number").asc(nulls_first=True), "id")
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


def campaign_outcomes(campaign: Campaign) -> list[Outcome]:
    """Confirmed and resolved battles as plain outcomes (two queries)."""
    out_of_action = {
        (row["battle_id"], row["actor_warband_id"]): row["count"]
        for row in BattleEvent.objects.filter(
            battle__campaign=campaign,
            battle__status__in=[Battle.Status.CONFIRMED, Battle.Status.RESOLVED],
            kind=BattleEvent.Kind.OUT_OF_ACTION,
            actor_warband__isnull=False,
        )
        .exclude(target_warband=F("actor_warband"))
        .values("battle_id", "actor_warband_id")
        .annotate(count=Count("id"))
    }
    outcomes: dict[int, list[Result]] = {}
    rounds: dict[int, int | None] = {}
    for battle_id, round_number, is_bye, warband_id, result in (
        BattleParticipant.objects.filter(
            battle__campaign=campaign,
            battle__status__in=[Battle.Status.CONFIRMED, Battle.Status.RESOLVED],
        )
        .order_by("battle_id", "id")
        .values_list("battle_id", "battle__round__number", "battle__is_bye", "warband_id", "result")
    ):
        rounds[battle_id] = round_number
        outcomes.setdefault(battle_id, []).append(
            Result(
                warband_id,
                BYE if is_bye else result,
                out_of_action.get((battle_id, warband_id), 0),
            )
        )
    return [
        Outcome(rounds[battle_id], tuple(results))
        for battle_id, results in outcomes.items()
        if all(r.result for r in results)
    ]


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
