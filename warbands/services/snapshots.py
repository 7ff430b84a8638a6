"""Snapshots of a roster and their exact restore: what the post-battle revert and the undo of
the last roster change put back (the ledger gets compensating entries, never a deletion)."""

from __future__ import annotations

from typing import Any

from django.db.models import Model

from ..models import (
    PROFILE_FIELDS,
    EquipmentItem,
    Fighter,
    HenchmanGroup,
    LedgerEntry,
    Warband,
)
from .ledger import ledger_apply
from .unit import finish_change, lock_warband, roster_atomic

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
    # What recreating a deleted row needs (a dismissal deletes him); older snapshots lack them.
    "fighter_type_id",
    "hired_sword_id",
    "hired_experience",
)
GROUP_FIELDS = (*PROFILE_FIELDS, *ADVANCING_FIELDS, "name", "fighter_type_id")


def warband_snapshot(*, warband: Warband) -> dict[str, Any]:
    """Everything a roster change may change, by row id (JSON-able): enough to recreate a
    fighter or group deleted since."""
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


def _put_back(
    model: type[Fighter] | type[HenchmanGroup],
    rows: dict[str, dict[str, Any]],
    fields: tuple[str, ...],
    locked: Warband,
) -> list[tuple[Fighter | HenchmanGroup, dict[str, Any]]]:
    """Save each snapshot row as it was, recreating one deleted since (when the snapshot is
    recent enough to hold its type); each row saved, with its data."""
    existing = {str(row.pk): row for row in model.objects.filter(warband=locked)}
    saved = []
    for pk, data in rows.items():
        row = existing.get(pk)
        if row is None:
            if "fighter_type_id" not in data:
                continue  # deleted since, and a snapshot too old to recreate it
            row = model(pk=int(pk), warband=locked)
        for name in fields:
            if name in data:
                setattr(row, name, data[name])
        row.save()
        saved.append((row, data))
    return saved


@roster_atomic
def warband_restore(
    *,
    warband: Warband,
    snapshot: dict[str, Any],
    source: Model | None,
    reason: str = LedgerEntry.Reason.REVERT,
    code: str = "postbattle_reverted",
    params: dict[str, Any] | None = None,
    always_record: bool = False,
    check_rules: bool = False,
) -> None:
    """Put the roster back exactly as in ``snapshot``; the ledger gets compensating entries
    (``reason``, ``code`` and ``params`` say why), and a line even when no money moves if
    ``always_record``. ``check_rules``: the registered house rules must accept the roster put
    back (an undo; a revert restores what the rules accepted before the battle)."""
    locked = lock_warband(warband.pk)
    _put_back(HenchmanGroup, snapshot["groups"], GROUP_FIELDS, locked)
    for fighter, data in _put_back(Fighter, snapshot["fighters"], FIGHTER_FIELDS, locked):
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
    if amount or finds or always_record:
        ledger_apply(
            warband=locked,
            amount=amount,
            finds_delta=finds,
            reason=reason,
            code=code,
            params=params,
            source=source,
        )
    finish_change(locked, roster_changed=check_rules)
