"""Reads for the campaign pages and endpoints, each shaped with its own joins and prefetches so
the number of queries does not grow with the number of players or battles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404

from battles.common import access
from battles.models import Battle, BattleParticipant, Campaign, Membership, Round
from rules.engine.campaign_tables import tables_in_force
from warbands.models import HiredSword
from warbands.packs.selectors import version_tables

# A page of a big league: its members and a round's battles are listed this many at a time.
MEMBERS_PER_PAGE = 25
BATTLES_PER_PAGE = 25


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


def campaign_visible(*, user, slug: str) -> Campaign:
    """The campaign alone, if ``user`` may see it (404 otherwise): what a write or a page that
    reads the rest itself starts from."""
    return get_object_or_404(access.visible_campaigns(user), slug=slug)


def campaign_detail(*, user, slug: str) -> Campaign:
    """The campaign page's campaign: with its allowed types (its summary) and its rounds, each
    counting its battles and those settled. Members and battles are read a page at a time
    (``members_page``, ``round_battles_page``): a league of 512 warbands reads 50 of each."""
    rounds = Round.objects.order_by("number").annotate(
        battle_count=Count("battles", distinct=True),
        settled_count=Count(
            "battles",
            filter=Q(battles__status__in=[Battle.Status.CONFIRMED, Battle.Status.RESOLVED]),
            distinct=True,
        ),
    )
    return get_object_or_404(
        access.visible_campaigns(user)
        .select_related("pack_version__pack")
        .prefetch_related("allowed_warband_types", Prefetch("rounds", queryset=rounds)),
        slug=slug,
    )


def campaign_for_standings(*, user, slug: str) -> Campaign:
    """The campaign with its rounds' numbers, not its members nor its battles: the standings
    read their results in bulk (``scoring``) and their members as plain rows
    (``standing_members``)."""
    return get_object_or_404(
        access.visible_campaigns(user).prefetch_related(
            Prefetch("rounds", queryset=Round.objects.order_by("number"))
        ),
        slug=slug,
    )


@dataclass(frozen=True)
class StandingMember:
    warband_id: int
    rating: int
    user_id: int
    username: str


def standing_members(campaign: Campaign) -> list[StandingMember]:
    """Each member warband with its rating now and its player, as plain rows (one query): a
    league of 512 warbands builds no model instances for its standings."""
    return [
        StandingMember(*row)
        for row in campaign.memberships.filter(warband__isnull=False).values_list(
            "warband_id", "warband__rating", "user_id", "user__username"
        )
    ]


def members_page(campaign: Campaign, number) -> Page:
    """One page of the campaign's members (organisers first, then by joining order)."""
    memberships = campaign.memberships.select_related("user", "warband__warband_type").order_by(
        "role", "joined_at", "id"
    )
    return Paginator(memberships, MEMBERS_PER_PAGE).get_page(number)


def round_battles_page(round: Round, number) -> Page:
    """One page of the round's battles with their participants' warbands (in battle order)."""
    participants = BattleParticipant.objects.select_related("warband").order_by("id")
    battles = round.battles.order_by("id").prefetch_related(
        Prefetch("participants", queryset=participants)
    )
    return Paginator(battles, BATTLES_PER_PAGE).get_page(number)


def membership_of(campaign: Campaign, user) -> Membership | None:
    if not user.is_authenticated:
        return None
    return campaign.memberships.filter(user=user).select_related("warband").first()


def players_unpaired(campaign: Campaign, round: Round | None) -> list[Membership]:
    """The playing members without a battle in ``round`` (all of them without a round): whom
    the organiser may still seat in a battle by hand."""
    players = campaign.memberships.filter(active=True, warband__isnull=False)
    if round is not None:
        seated = BattleParticipant.objects.filter(battle__round=round).values("warband_id")
        players = players.exclude(warband_id__in=seated)
    return list(players.select_related("warband").order_by("warband__name", "id"))


def players(campaign: Campaign) -> list[Membership]:
    return list(
        campaign.memberships.filter(active=True, warband__isnull=False)
        .select_related("warband")
        .order_by("warband__name", "id")
    )


def campaign_for_api(*, user, slug: str) -> Campaign:
    return get_object_or_404(
        access.visible_campaigns(user).prefetch_related(_memberships(), "allowed_warband_types"),
        slug=slug,
    )


def players_by_warband(campaign: Campaign) -> dict[int, str]:
    """Each member warband's player (username), for the standings and their CSV; reads the
    memberships the campaign was fetched with — ``campaign_for_standings`` (pages),
    ``campaign_for_api`` and the admin's export prefetch them with their users; without that it
    reads 1 + N."""
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


def rating_history(campaign: Campaign, warband_ids) -> tuple[list[int], dict[int, dict[int, int]]]:
    """Round numbers and, for the warbands in ``warband_ids``, each one's rating at its battle
    of each round (two queries, whatever the size of the league)."""
    numbers = list(
        BattleParticipant.objects.filter(battle__campaign=campaign, battle__round__isnull=False)
        .order_by("battle__round__number")
        .values_list("battle__round__number", flat=True)
        .distinct()
    )
    history: dict[int, dict[int, int]] = {}
    for warband_id, number, rating in BattleParticipant.objects.filter(
        battle__campaign=campaign, battle__round__isnull=False, warband_id__in=list(warband_ids)
    ).values_list("warband_id", "battle__round__number", "rating_at_battle"):
        history.setdefault(warband_id, {})[number] = rating
    return numbers, history


def campaign_tables(campaign: Campaign) -> dict[str, Any]:
    """The campaign tables in force beyond the engine's defaults, for every reader (the
    post-battle sequence, the underdog bonus at setup, the scenario list, the exports): its
    pack version's tables, each replaced by the campaign's own override when it has one
    (``Campaign.tables``, what its settings edit). One small query (the version's ``tables``
    only) when it plays a pack version; none otherwise. The advance thresholds are the
    warband's pack's (``warbands.services.rating.advance_thresholds``): a warband may play in
    several campaigns, so a campaign's own are never in force."""
    own = {k: v for k, v in (campaign.tables or {}).items() if k != "advance_thresholds"}
    return tables_in_force(version_tables(campaign.pack_version_id), own)
