"""Roster writes that only the post-battle sequence needs: snapshots and exact restore (revert),
losing all equipment (robbed), promoting a henchman ("the lad's got talent") and captives.

Same contract as ``warbands.services``: keyword-only, atomic, the warband row locked (and the
same batching: inside a ``roster_batch`` they join it).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils.translation import gettext as _

from .models import (
    PROFILE_FIELDS,
    EquipmentItem,
    Fighter,
    HenchmanGroup,
    LedgerEntry,
    Warband,
)
from .services.ledger import ledger_apply
from .services.unit import (
    finish_change,
    lock_warband,
    roster_atomic,
    roster_fighter,
    roster_items,
    roster_items_drop,
)

ADVANCING_FIELDS = ("experience", "advances", "advances_due", "special_rules")
FIGHTER_FIELDS = (
    *PROFILE_FIELDS,
    *ADVANCING_FIELDS,
    "status",
    "misses_battles",
    "injuries",
    "group_id",
    "is_hero",
    "is_leader",
    "skill_lists",
    "name",
)
GROUP_FIELDS = (*PROFILE_FIELDS, *ADVANCING_FIELDS, "name")


def warband_snapshot(*, warband: Warband) -> dict[str, Any]:
    """Everything the post-battle sequence may change, by row id (JSON-able)."""
    return warband_snapshots(warbands=[warband])[warband.pk]


def warband_snapshots(
    *,
    warbands: list[Warband],
    fighters: dict[int, list[Fighter]] | None = None,
    groups: dict[int, list[HenchmanGroup]] | None = None,
    items: dict[int, list[EquipmentItem]] | None = None,
) -> dict[int, dict[str, Any]]:
    """``warband_snapshot`` of several warbands in four queries, by warband id. Treasury and
    finds are taken from the instances given; ``fighters`` (per warband id, with their skills
    prefetched), ``groups`` and ``items`` spare reading them again when the caller has just
    read them."""
    ids = [warband.pk for warband in warbands]
    if fighters is None:
        fighters = {pk: [] for pk in ids}
        for fighter in Fighter.objects.filter(warband_id__in=ids).prefetch_related("skills"):
            fighters[fighter.warband_id].append(fighter)
    if groups is None:
        groups = {pk: [] for pk in ids}
        for group in HenchmanGroup.objects.filter(warband_id__in=ids):
            groups[group.warband_id].append(group)
    if items is None:
        items = {pk: [] for pk in ids}
        for item in EquipmentItem.objects.filter(warband_id__in=ids):
            items[item.warband_id].append(item)
    return {
        warband.pk: {
            "treasury": warband.treasury,
            "finds": warband.finds,
            "fighters": {
                str(f.pk): {
                    **{name: getattr(f, name) for name in FIGHTER_FIELDS},
                    "skills": sorted(skill.pk for skill in f.skills.all()),
                }
                for f in fighters[warband.pk]
            },
            "groups": {
                str(g.pk): {name: getattr(g, name) for name in GROUP_FIELDS}
                for g in groups[warband.pk]
            },
            "items": {
                str(item.pk): {
                    "equipment_id": item.equipment_id,
                    "fighter_id": item.fighter_id,
                    "group_id": item.group_id,
                    "unit_price": item.unit_price,
                }
                for item in items[warband.pk]
            },
        }
        for warband in warbands
    }


@roster_atomic
def warband_restore(*, warband: Warband, snapshot: dict[str, Any], source: Model | None) -> None:
    """Put the roster back exactly as in ``snapshot``; the ledger gets compensating entries."""
    locked = lock_warband(warband.pk)
    fighters = {str(f.pk): f for f in Fighter.objects.filter(warband=locked)}
    groups = {str(g.pk): g for g in HenchmanGroup.objects.filter(warband=locked)}
    for pk, data in snapshot["groups"].items():
        group = groups.get(pk) or HenchmanGroup(pk=int(pk), warband=locked)
        for name in GROUP_FIELDS:
            setattr(group, name, data[name])
        group.save()
    for pk, data in snapshot["fighters"].items():
        fighter = fighters.get(pk)
        if fighter is None:  # never deleted by the sequence; kept for safety
            continue
        for name in FIGHTER_FIELDS:
            setattr(fighter, name, data[name])
        fighter.save()
        if sorted(fighter.skills.values_list("pk", flat=True)) != data["skills"]:
            fighter.skills.set(data["skills"])
    Fighter.objects.filter(warband=locked).exclude(
        pk__in=[int(pk) for pk in snapshot["fighters"]]
    ).delete()
    HenchmanGroup.objects.filter(warband=locked).exclude(
        pk__in=[int(pk) for pk in snapshot["groups"]]
    ).delete()
    items = {str(i.pk): i for i in EquipmentItem.objects.filter(warband=locked)}
    EquipmentItem.objects.filter(warband=locked).exclude(
        pk__in=[int(pk) for pk in snapshot["items"]]
    ).delete()
    for pk, data in snapshot["items"].items():
        item = items.get(pk) or EquipmentItem(pk=int(pk), warband=locked)
        for name, value in data.items():
            setattr(item, name, value)
        item.save()
    amount = snapshot["treasury"] - locked.treasury
    finds = snapshot["finds"] - locked.finds
    if amount or finds:
        ledger_apply(
            warband=locked,
            amount=amount,
            finds_delta=finds,
            reason=LedgerEntry.Reason.REVERT,
            code="postbattle_reverted",
            source=source,
        )
    finish_change(locked, roster_changed=False)


@roster_atomic
def fighter_lose_equipment(*, fighter: Fighter, source: Model | None = None) -> list[str]:
    """Robbed: all his weapons, armour and equipment are gone (recorded in the ledger)."""
    locked = lock_warband(fighter.warband_id)
    fighter = roster_fighter(locked, fighter)
    items = roster_items(locked, fighter=fighter)
    roster_items_drop(locked, items)
    lost = [item.equipment.name for item in items]
    ledger_apply(
        warband=locked,
        amount=0,
        reason=LedgerEntry.Reason.INJURY,
        code="robbed",
        params={"name": fighter.name, "items": lost},
        source=source or fighter,
    )
    finish_change(locked)
    return lost


@roster_atomic
def fighter_promote(*, fighter: Fighter, skill_lists: list[str]) -> Fighter:
    """The lad's got talent: a henchman leaves his group and becomes a hero, keeping his
    experience, equipment and increases; he picks two skill lists."""
    locked = lock_warband(fighter.warband_id)
    fighter = roster_fighter(locked, fighter)
    group = fighter.group
    if group is None:
        raise ValidationError(_("Only a henchman can be promoted."))
    # Groups hold one copy of each item per member: one of each goes with him.
    taken: dict[int, EquipmentItem] = {}
    for item in group.equipment.order_by("equipment_id", "pk"):
        taken.setdefault(item.equipment_id, item)
    EquipmentItem.objects.filter(pk__in=[item.pk for item in taken.values()]).update(
        group=None, fighter=fighter
    )
    fighter.group = None
    fighter.is_hero = True
    fighter.skill_lists = list(skill_lists)
    fighter.experience = group.experience
    # As a hero he counts his advances from here: his group's henchman advances stay in his
    # profile, and hero thresholds are crossed from the experience he has now.
    fighter.hired_experience = group.experience
    fighter.advances = []
    fighter.save()
    finish_change(locked)
    return fighter


@roster_atomic
def captive_gear_to_captor(*, fighter: Fighter, captor: Warband) -> list[str]:
    """A captive sold by his captor: the captor keeps his gear (into the captor's stash)."""
    # Lock in warband id order, as every other multi-warband write does (no deadlock).
    first, second = sorted([fighter.warband_id, captor.pk])
    locks = {first: lock_warband(first), second: lock_warband(second)}
    owner, locked_captor = locks[fighter.warband_id], locks[captor.pk]
    items = list(EquipmentItem.objects.filter(fighter=fighter).select_related("equipment"))
    names = [item.equipment.name for item in items]
    EquipmentItem.objects.filter(pk__in=[item.pk for item in items]).update(
        warband=locked_captor, fighter=None, group=None
    )
    finish_change(owner, roster_changed=False)
    finish_change(locked_captor, roster_changed=False)
    return names
