"""Reads of the battle log: who may fight, the entries after a seq, the state."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from battles.models import Battle, BattleLogEntry
from battles.models.battlelog import BattleLineup
from warbands.models import EquipmentItem, Fighter

PROFILE = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")
MAX_PAGE = 500


def _profile(fighter: Fighter) -> dict[str, int]:
    values = {name: getattr(fighter, name) for name in PROFILE}
    values["m"] = int(values["m"])
    return values


def eligible_fighters(battle: Battle) -> dict[int, dict[str, Any]]:
    """For each warband of the battle: the fighters who may fight (as setup data) and those who
    may not, with the reason (an injury that makes him miss this battle). Four queries."""
    items = Prefetch("equipment", queryset=EquipmentItem.objects.select_related("equipment"))
    group_items = Prefetch(
        "group__equipment", queryset=EquipmentItem.objects.select_related("equipment")
    )
    participants = list(battle.participants.select_related("warband").order_by("id"))
    fighters = (
        Fighter.objects.filter(
            warband__in=[p.warband_id for p in participants], status__in=Fighter.IN_ROSTER
        )
        .select_related("fighter_type", "group")
        .prefetch_related(items, group_items)
        .order_by("-is_leader", "-is_hero", "pk")
    )
    out: dict[int, dict[str, Any]] = {
        p.warband_id: {"name": p.warband.name, "fighters": [], "excluded": []} for p in participants
    }
    for fighter in fighters:
        side = out[fighter.warband_id]
        if fighter.status != Fighter.Status.ACTIVE:
            side["excluded"].append(
                {
                    "id": fighter.pk,
                    "name": fighter.name,
                    "reason": _("misses this battle recovering from an injury"),
                }
            )
            continue
        carried = [item.equipment.slug for item in fighter.equipment.all()]
        if fighter.group is not None:
            carried += [item.equipment.slug for item in fighter.group.equipment.all()]
        rules = [*fighter.fighter_type.special_rules, *fighter.special_rules]
        side["fighters"].append(
            {
                "id": fighter.pk,
                "name": fighter.name,
                "profile": _profile(fighter),
                "leader": fighter.is_leader,
                "hero": fighter.is_hero,
                "rules": sorted({str(r) for r in rules}),
                "equipment": carried,
            }
        )
    return out


def log_entries(battle: Battle, *, after: int = 0, limit: int = MAX_PAGE) -> QuerySet:
    """The entries after ``after``, in order, with their authors: one query whatever the log."""
    return (
        BattleLogEntry.objects.filter(battle=battle, seq__gt=after)
        .select_related("author")
        .order_by("seq")[:limit]
    )


def lineups(battle: Battle) -> dict[int, list[int]]:
    """Each warband's chosen lineup (fighter ids), for those who chose one."""
    return dict(BattleLineup.objects.filter(battle=battle).values_list("warband_id", "fighters"))


def with_participants(battle: Battle) -> Battle:
    """The battle with its participants' warbands and its campaign's memberships at hand."""
    return (
        Battle.objects.select_related("campaign")
        .prefetch_related("participants__warband", "campaign__memberships")
        .get(pk=battle.pk)
    )
