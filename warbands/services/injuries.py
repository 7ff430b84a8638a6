"""A warrior's fate after battle: status (misses the next battle, captured, back), death,
serious injuries (heridas graves)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils.translation import gettext as _

from ..ledger_texts import catalogue_term
from ..models import Fighter, LedgerEntry, Warband
from .hiring import roster_limits_check
from .ledger import ledger_event
from .unit import (
    IN_ROSTER,
    finish_change,
    group_size,
    lock_warband,
    roster_atomic,
    roster_fighter,
    roster_flush,
    roster_items,
    roster_items_drop,
    roster_save,
)


@roster_atomic
def fighter_kill(*, fighter: Fighter, source: Model | None = None) -> Fighter:
    """He is dead: out of the roster; his equipment is lost and the loss recorded."""
    locked = lock_warband(fighter.warband_id)
    fighter = roster_fighter(locked, fighter)
    if fighter.status == Fighter.Status.DEAD:
        return fighter
    own = roster_items(locked, fighter=fighter)
    roster_items_drop(locked, own)
    lost = [catalogue_term(item.equipment) for item in own]
    group = fighter.group
    shared = roster_items(locked, group=group) if group is not None else []
    lost += [catalogue_term(item.equipment) for item in shared]
    fighter.status = Fighter.Status.DEAD
    fighter.misses_battles = 0
    roster_save(locked, fighter, ["status", "misses_battles"])
    if group is not None and group_size(group) == 0:
        roster_items_drop(locked, shared)
    lost_items_record(locked, fighter, code="dead", lost=lost, source=source)
    finish_change(locked)
    return fighter


def lost_items_record(
    locked: Warband, fighter: Fighter, *, code: str, lost: list, source: Model | None
) -> None:
    """The ledger line (no money moves) naming what a warrior lost: ``dead``, everything he
    carried; ``robbed``, his own gear. ``source`` defaults to the warrior."""
    ledger_event(
        locked,
        reason=LedgerEntry.Reason.INJURY,
        code=code,
        params={"name": fighter.name, "items": lost},
        source=source or fighter,
    )


@roster_atomic
def fighter_set_status(
    *,
    fighter: Fighter,
    status: str,
    misses_battles: int | None = None,
    source: Model | None = None,
) -> Fighter:
    """Set a warrior's status (``dead`` goes through ``fighter_kill``)."""
    if status not in Fighter.Status.values:
        raise ValidationError({"status": _("Unknown status: %(status)s.") % {"status": status}})
    if status == Fighter.Status.DEAD:
        return fighter_kill(fighter=fighter, source=source)
    locked = lock_warband(fighter.warband_id)
    fighter = roster_fighter(locked, fighter)
    if fighter.status == Fighter.Status.DEAD:
        raise ValidationError(_("%(name)s is dead.") % {"name": fighter.name})
    returning = fighter.status not in IN_ROSTER and status in IN_ROSTER
    if returning:
        roster_flush(locked)  # the checks below read the roster from the database
    if (
        returning
        and fighter.is_leader
        and Fighter.objects.filter(warband=locked, is_leader=True, status__in=IN_ROSTER)
        .exclude(pk=fighter.pk)
        .exists()
    ):
        # Back from captivity while another now leads the warband: he returns as a hero.
        fighter.is_leader = False
    fighter.status = status
    if status == Fighter.Status.MISSES_NEXT:
        fighter.misses_battles = max(1, misses_battles or 1)
    elif misses_battles is not None:
        fighter.misses_battles = max(0, int(misses_battles))
    else:
        fighter.misses_battles = 0
    roster_save(locked, fighter, ["status", "misses_battles", "is_leader"])
    if returning:
        roster_flush(locked)
        roster_limits_check(locked)  # a returning captive must still fit the roster
    finish_change(locked)
    return fighter


@roster_atomic
def fighter_add_injury(
    *,
    fighter: Fighter,
    code: str,
    label: str,
    battle_id: int | None = None,
    special_rule: str | None = None,
) -> Fighter:
    """Record a serious injury (heridas graves) on the sheet; an optional special rule too."""
    locked = lock_warband(fighter.warband_id)
    fighter = roster_fighter(locked, fighter)
    record = {"code": code, "label": label}
    if battle_id is not None:
        record["battle_id"] = battle_id
    fighter.injuries = [*fighter.injuries, record]
    if special_rule and special_rule not in fighter.special_rules:
        fighter.special_rules = [*fighter.special_rules, special_rule]
    roster_save(locked, fighter, ["injuries", "special_rules"])
    finish_change(locked)
    return fighter
