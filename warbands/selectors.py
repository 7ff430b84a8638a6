"""Reads shaped for their page or endpoint, with their joins and prefetches."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from .models import EquipmentItem, Fighter, FighterType, HenchmanGroup, Warband

IN_ROSTER = Fighter.IN_ROSTER


def _items() -> QuerySet[EquipmentItem]:
    return EquipmentItem.objects.select_related("equipment").order_by("pk")


def warband_sheet_queryset() -> QuerySet[Warband]:
    """Everything the Hoja de Control de Banda shows, in a fixed number of queries (8)."""
    return Warband.objects.select_related(
        "owner", "warband_type", "warband_type__race", "warband_type__pack"
    ).prefetch_related(
        Prefetch(
            "fighters",
            queryset=Fighter.objects.filter(group__isnull=True)
            .select_related("fighter_type", "fighter_type__race")
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
    return warband


def warband_by_share_token(*, token: str) -> Warband:
    warband = warband_sheet_queryset().get(share_token=token)
    return annotate_sheet(warband)


def warbands_for_user(*, user) -> QuerySet[Warband]:
    return (
        Warband.objects.filter(owner=user)
        .select_related("warband_type")
        .order_by("-updated_at", "pk")
    )


def fighter_types_for(*, warband: Warband) -> QuerySet[FighterType]:
    return FighterType.objects.filter(warband_type_id=warband.warband_type_id).order_by(
        "order", "name"
    )


def ledger_mismatches() -> list[dict]:
    """Warbands whose treasury or finds differ from the sums of their ledger (one query)."""
    from django.db.models import F, Q, Sum, Value
    from django.db.models.functions import Coalesce

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
    from .models import LedgerEntry

    return LedgerEntry.objects.filter(warband=warband).select_related("source_type").order_by("-pk")
