"""Roster writes that only the post-battle sequence needs: losing all equipment (robbed),
promoting a henchman ("the lad's got talent") and captives. Snapshots and their exact restore
(the revert) are ``warbands.services.snapshots``.

Same contract as ``warbands.services``: keyword-only, atomic, the warband row locked (and the
same batching: inside a ``roster_batch`` they join it).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils.translation import gettext as _

from .ledger_texts import catalogue_term
from .models import EquipmentItem, Fighter, Warband
from .services.injuries import lost_items_record
from .services.unit import (
    finish_change,
    lock_warband,
    roster_atomic,
    roster_fighter,
    roster_items,
    roster_items_drop,
)


@roster_atomic
def fighter_lose_equipment(*, fighter: Fighter, source: Model | None = None) -> list[str]:
    """Robbed: all his weapons, armour and equipment are gone (recorded in the ledger)."""
    locked = lock_warband(fighter.warband_id)
    fighter = roster_fighter(locked, fighter)
    items = roster_items(locked, fighter=fighter)
    roster_items_drop(locked, items)
    lost = [item.equipment.name for item in items]
    lost_items_record(
        locked,
        fighter,
        code="robbed",
        lost=[catalogue_term(item.equipment) for item in items],
        source=source,
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
