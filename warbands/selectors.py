"""Reads shaped for their page or endpoint, with their joins and prefetches."""

from __future__ import annotations

from django.apps import apps
from django.db.models import (
    Count,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from .models import (
    EquipmentItem,
    Fighter,
    FighterType,
    HenchmanGroup,
    LedgerEntry,
    SpecialRule,
    Warband,
)

IN_ROSTER = Fighter.IN_ROSTER
# Battles that count as played: confirmed or resolved, not a bye (the battles app's statuses).
PLAYED_STATUSES = ("confirmed", "resolved")


def _items() -> QuerySet[EquipmentItem]:
    return EquipmentItem.objects.select_related("equipment").order_by("pk")


def _games_played() -> Subquery:
    """How many battles the warband has played (its participations, counted in SQL)."""
    participant = apps.get_model("battles", "BattleParticipant")
    played = (
        participant.objects.filter(
            warband=OuterRef("pk"),
            battle__status__in=PLAYED_STATUSES,
            battle__is_bye=False,
        )
        .order_by()
        .values("warband")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Subquery(played, output_field=IntegerField())


def warband_sheet_queryset() -> QuerySet[Warband]:
    """Everything the Hoja de Control de Banda shows, in a fixed number of queries (9 with
    the special rules' names, read by ``warband_sheet``)."""
    return (
        Warband.objects.annotate(games_played=_games_played())
        .select_related(
            "owner",
            "warband_type",
            "warband_type__race",
            "warband_type__pack",
            "warband_type__pack_version",
            "undo_point",
        )
        .prefetch_related(
            Prefetch(
                "fighters",
                queryset=Fighter.objects.filter(group__isnull=True)
                .select_related("fighter_type", "fighter_type__race", "hired_sword")
                .prefetch_related(
                    Prefetch("skills"),
                    Prefetch("equipment", queryset=_items()),
                )
                .order_by("-is_leader", "pk"),
                to_attr="heroes_all",
            ),
            Prefetch(
                "groups",
                queryset=HenchmanGroup.objects.select_related(
                    "fighter_type", "fighter_type__race"
                ).prefetch_related(
                    Prefetch("members", queryset=Fighter.objects.order_by("pk")),
                    Prefetch("equipment", queryset=_items()),
                ),
            ),
            Prefetch(
                "equipment_items",
                queryset=_items().filter(fighter__isnull=True, group__isnull=True),
                to_attr="stash",
            ),
        )
    )


def warband_sheet(*, warband_id: int, owner=None) -> Warband:
    """The warband with fighters (type, skills, equipment), groups (members, equipment), stash.

    ``heroes_all`` lists every warrior outside a group (dead and retired too); ``heroes`` the
    ones in the roster and ``fallen`` the others; each group gets ``roster_members``.
    """
    queryset = warband_sheet_queryset()
    if owner is not None:
        queryset = queryset.filter(owner=owner)
    warband = queryset.get(pk=warband_id)
    annotate_sheet(warband)
    warband.special_rule_index = _special_rules(warband)
    return warband


def annotate_sheet(warband: Warband) -> Warband:
    warband.heroes = [f for f in warband.heroes_all if f.status in IN_ROSTER]
    warband.fallen = [f for f in warband.heroes_all if f.status not in IN_ROSTER]
    warband.group_list = list(warband.groups.all())
    for group in warband.group_list:
        group.roster_members = [m for m in group.members.all() if m.status in IN_ROSTER]
    warband.warrior_count = len(warband.heroes) + sum(
        len(group.roster_members) for group in warband.group_list
    )
    warband.total_experience = sum(f.experience for f in warband.heroes) + sum(
        group.experience * len(group.roster_members) for group in warband.group_list
    )
    warband.has_leader = any(f.is_leader for f in warband.heroes)
    warband.games_played = getattr(warband, "games_played", None) or 0
    return warband


def _special_rules(warband: Warband) -> dict[str, SpecialRule]:
    """The catalogue's special rules the sheet names, by slug (one query)."""
    slugs = set()
    for holder in [*warband.heroes_all, *warband.group_list]:
        slugs.update(holder.special_rules or [])
        slugs.update(holder.fighter_type.special_rules or [])
    if not slugs:
        return {}
    return {rule.slug: rule for rule in SpecialRule.objects.filter(slug__in=slugs)}


def warband_by_share_token(*, token: str) -> Warband:
    warband = annotate_sheet(warband_sheet_queryset().get(share_token=token))
    warband.special_rule_index = _special_rules(warband)
    return warband


def warbands_for_user(*, user) -> QuerySet[Warband]:
    return (
        Warband.objects.filter(owner=user)
        .select_related("warband_type", "undo_point")
        .order_by("-updated_at", "pk")
    )


def fighter_types_for(*, warband: Warband) -> QuerySet[FighterType]:
    return FighterType.objects.filter(warband_type_id=warband.warband_type_id).order_by(
        "order", "name"
    )


def ledger_mismatches() -> list[dict]:
    """Warbands whose treasury or finds differ from the sums of their ledger (one query)."""
    rows = (
        Warband.objects.annotate(
            ledger_treasury=Coalesce(Sum("ledger__amount"), Value(0)),
            ledger_finds=Coalesce(Sum("ledger__finds_delta"), Value(0)),
        )
        .filter(~Q(ledger_treasury=F("treasury")) | ~Q(ledger_finds=F("finds")))
        .values("id", "name", "treasury", "finds", "ledger_treasury", "ledger_finds")
        .order_by("id")
    )
    return list(rows)


def warband_ledger(*, warband: Warband):
    return LedgerEntry.objects.filter(warband=warband).select_related("source_type").order_by("-pk")
