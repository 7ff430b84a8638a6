"""Who is in the roster: hire, dismiss, retire, rename, choose the leader; the roster limits."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .. import limits
from ..ledger_texts import catalogue_term
from ..models import (
    PROFILE_FIELDS,
    EquipmentItem,
    Fighter,
    FighterType,
    HenchmanGroup,
    LedgerEntry,
    Warband,
)
from . import undo
from .equipment import to_stash
from .ledger import check_affordable, ledger_apply, ledger_event
from .unit import (
    IN_ROSTER,
    finish_change,
    group_size,
    lock_warband,
    require_in_roster,
    roster_atomic,
    roster_fighter,
    roster_group,
)


def roster_limits_check(warband: Warband) -> None:
    """The game's limits on the whole roster; raises with the first one broken."""
    warband_type = warband.warband_type
    fighters = list(
        warband.fighters.filter(status__in=IN_ROSTER).select_related("fighter_type", "group")
    )
    leaders = [f for f in fighters if f.is_leader]
    for fighter in fighters:
        # Whatever the door (import, admin, a restored snapshot): a hired sword serves for pay,
        # never leads and never joins a henchman group.
        if fighter.hired_sword_id is not None and fighter.is_leader:
            raise ValidationError(_hired_sword_never_leads(fighter))
        if fighter.hired_sword_id is not None and fighter.group_id:
            raise ValidationError(
                _("%(name)s is a hired sword: he fights on his own, never in a henchman group.")
                % {"name": fighter.name}
            )
    if len(leaders) > 1:
        raise ValidationError(
            _("A warband has exactly one leader: %(name)s already leads this one.")
            % {"name": leaders[0].name}
        )
    # Hired swords count for the warband's size, never against its heroes.
    heroes = [f for f in fighters if f.is_hero and f.hired_sword_id is None]
    if len(heroes) > warband_type.max_heroes:
        raise ValidationError(
            _("A %(type)s warband has at most %(max)d heroes, the leader included.")
            % {"type": warband_type.display_name, "max": warband_type.max_heroes}
        )
    if len(fighters) > warband_type.max_size:
        raise ValidationError(
            _("A %(type)s warband has at most %(max)d warriors; this would make %(count)d.")
            % {
                "type": warband_type.display_name,
                "max": warband_type.max_size,
                "count": len(fighters),
            }
        )
    _per_type_check(warband_type, fighters)
    _per_group_check(fighters)


def _hired_sword_never_leads(fighter: Fighter) -> str:
    return _(
        "%(name)s is a hired sword: he serves for pay and never leads the warband; "
        "make one of its own heroes the leader."
    ) % {"name": fighter.name}


def _per_type_check(warband_type, fighters: list[Fighter]) -> None:
    per_type: dict[int, list[Fighter]] = {}
    for fighter in fighters:
        per_type.setdefault(fighter.fighter_type_id, []).append(fighter)
    for members in per_type.values():
        fighter_type = members[0].fighter_type
        # A hired sword's type is its own pack's; whom it serves is checked when hired.
        if members[0].hired_sword_id is None and fighter_type.warband_type_id != warband_type.pk:
            raise ValidationError(
                _("%(fighter)s cannot join a %(type)s warband.")
                % {"fighter": fighter_type.display_name, "type": warband_type.display_name}
            )
        if fighter_type.max_count is not None and len(members) > fighter_type.max_count:
            raise ValidationError(
                _("A warband may have at most %(max)d × %(fighter)s.")
                % {"max": fighter_type.max_count, "fighter": fighter_type.display_name}
            )


def _per_group_check(fighters: list[Fighter]) -> None:
    per_group: dict[int, list[Fighter]] = {}
    for fighter in fighters:
        if fighter.group_id:
            per_group.setdefault(fighter.group_id, []).append(fighter)
    for members in per_group.values():
        group = members[0].group
        max_size = members[0].fighter_type.group_max_size
        if len(members) > max_size:
            raise ValidationError(
                _("The group %(group)s can have at most %(max)d members.")
                % {"group": group.name, "max": max_size}
            )


# --- hiring ----------------------------------------------------------------------------------


def fighter_hire_price(
    *, fighter_type: FighterType, count: int = 1, group: HenchmanGroup | None = None
) -> int:
    """What hiring costs: the type's cost per warrior, and joining a group also pays for one
    of each of the group's items per new member. Nothing is checked or written."""
    equipment_cost = sum(item.unit_price for item in group.equipment.all()) if group else 0
    return (fighter_type.cost + equipment_cost) * count


@undo.undoable(undo.hire_code, undo.describe_hire)
@roster_atomic
def fighter_hire(
    *,
    warband: Warband,
    fighter_type: FighterType,
    name: str,
    count: int = 1,
    group: HenchmanGroup | None = None,
    expected_version: int | None = None,
) -> Fighter | HenchmanGroup:
    """Hire a hero (returns the Fighter) or a henchman group of ``count`` (returns the group).

    With ``group``, the ``count`` new henchmen join that group: they share its profile and
    experience, and pay for its equipment as well as their own cost.
    """
    locked = lock_warband(warband, expected_version)
    warband_type = locked.warband_type
    if fighter_type.warband_type_id != warband_type.pk:
        raise ValidationError(
            _("%(fighter)s cannot be hired by a %(type)s warband.")
            % {"fighter": fighter_type.display_name, "type": warband_type.display_name}
        )
    try:
        count = int(count)
    except (TypeError, ValueError) as exc:
        raise ValidationError({"count": _("How many? Give a whole number.")}) from exc
    if count < 1:
        raise ValidationError({"count": _("Hire at least one warrior.")})
    name = limits.clean_name(name)
    if fighter_type.is_hero:
        if count != 1 or group is not None:
            raise ValidationError({"count": _("Heroes are hired one at a time.")})
        hired, cost, (code, params) = _hire_hero(locked, fighter_type, name)
    else:
        hired, cost, (code, params) = _hire_henchmen(locked, fighter_type, name, count, group)
    roster_limits_check(locked)
    ledger_apply(
        warband=locked,
        amount=-cost,
        reason=LedgerEntry.Reason.HIRE,
        code=code,
        params=params,
        source=hired,
    )
    finish_change(locked, caller=warband)
    return hired


def _hire_hero(
    locked: Warband, fighter_type: FighterType, name: str
) -> tuple[Fighter, int, tuple[str, dict]]:
    if fighter_type.is_leader:
        leader = locked.fighters.filter(is_leader=True, status__in=IN_ROSTER).first()
        if leader is not None:
            raise ValidationError(
                _("A warband has exactly one leader: %(name)s already leads this one.")
                % {"name": leader.name}
            )
    cost = fighter_hire_price(fighter_type=fighter_type)
    check_affordable(locked, cost, _("Hiring %(name)s") % {"name": fighter_type.display_name})
    hired = hero_create(locked, fighter_type, name, is_leader=fighter_type.is_leader)
    return hired, cost, ("hired_hero", {"name": name, "type": catalogue_term(fighter_type)})


def hero_create(locked: Warband, fighter_type: FighterType, name: str, **fields: Any) -> Fighter:
    """A new hero as his type makes him: its starting experience, special rules and profile
    (``fields`` add the rest: leading, the hired sword's terms)."""
    return Fighter.objects.create(
        warband=locked,
        fighter_type=fighter_type,
        name=name,
        is_hero=True,
        experience=fighter_type.starting_experience,
        hired_experience=fighter_type.starting_experience,
        special_rules=list(fighter_type.special_rules),
        **{field: getattr(fighter_type, field) for field in PROFILE_FIELDS},
        **fields,
    )


def _hire_henchmen(
    locked: Warband,
    fighter_type: FighterType,
    name: str,
    count: int,
    group: HenchmanGroup | None,
) -> tuple[HenchmanGroup, int, tuple[str, dict]]:
    """A new group of ``count``, or ``count`` more members of ``group`` (its gear paid too)."""
    if count > fighter_type.group_max_size:
        raise ValidationError(
            {
                "count": _("A group of %(type)s has at most %(max)d members.")
                % {"type": fighter_type.display_name, "max": fighter_type.group_max_size}
            }
        )
    what = _("Hiring %(count)d × %(name)s") % {"count": count, "name": fighter_type.display_name}
    if group is not None:
        group = roster_group(locked, group)
        if group.fighter_type_id != fighter_type.pk:
            raise ValidationError(
                _("Everyone in a henchman group is of the same type (%(type)s).")
                % {"type": group.fighter_type.display_name}
            )
        existing = group.members.count()
    cost = fighter_hire_price(fighter_type=fighter_type, count=count, group=group)
    check_affordable(locked, cost, what)
    if group is None:
        group = HenchmanGroup.objects.create(
            warband=locked,
            fighter_type=fighter_type,
            name=name,
            experience=0,
            special_rules=list(fighter_type.special_rules),
            **{field: getattr(fighter_type, field) for field in PROFILE_FIELDS},
        )
        existing = 0
    profile = {field: getattr(group, field) for field in PROFILE_FIELDS}
    for number in range(existing + 1, existing + count + 1):
        Fighter.objects.create(
            warband=locked,
            group=group,
            fighter_type=fighter_type,
            name=_member_name(group.name, number),
            experience=group.experience,
            hired_experience=group.experience,
            special_rules=list(group.special_rules),
            **profile,
        )
    return (
        group,
        cost,
        (
            "hired_henchmen",
            {"count": count, "type": catalogue_term(fighter_type), "group": group.name},
        ),
    )


def _member_name(group_name: str, number: int) -> str:
    """The henchman's name "<group> <n>", the group's name shortened to fit a name."""
    suffix = f" {number}"
    return group_name[: limits.NAME_MAX_LENGTH - len(suffix)].rstrip() + suffix


# --- leaving the roster ----------------------------------------------------------------------


def _leave_roster(locked: Warband, fighter: Fighter, *, status: str | None) -> list:
    """A fighter leaves (dismissed: deleted; retired: kept with that status); gear → stash."""
    if fighter.is_leader and fighter.status in IN_ROSTER:
        raise ValidationError(
            _("%(name)s leads the warband: make another hero the leader before he leaves.")
            % {"name": fighter.name}
        )
    if fighter.hired_sword_id is not None:
        # A hired sword takes his own gear with him (it was never paid for).
        fighter.equipment.filter(
            unit_price=0, equipment__in=fighter.hired_sword.equipment.all()
        ).delete()
    stashed = to_stash(locked, list(fighter.equipment.select_related("equipment")), 1)
    if fighter.group_id is not None:
        group_items = list(fighter.group.equipment.select_related("equipment"))
        for item in group_items:
            stashed.append(
                EquipmentItem.objects.create(
                    warband=locked, equipment=item.equipment, unit_price=item.unit_price
                )
            )
    if status is None:
        fighter.delete()
    else:
        fighter.status = status
        fighter.save(update_fields=["status"])
    return stashed


def _record_dismissal(locked: Warband, name: str, stashed: list) -> None:
    ledger_event(
        locked,
        reason=LedgerEntry.Reason.DISMISS,
        code="dismissed",
        params={"name": name, "count": len(stashed)},
    )
    finish_change(locked)


@undo.undoable("dismissed", undo.describe_who)
@roster_atomic
def fighter_dismiss(*, fighter: Fighter, expected_version: int | None = None) -> None:
    """Dismiss a warrior: he leaves the roster; his equipment goes to the stash. Not a hired
    sword (he leaves with his own gear, his upkeep settled: ``hired_sword_leave``), nor a
    captive (his captor decides his fate first)."""
    locked = lock_warband(fighter.warband_id, expected_version)
    fighter = roster_fighter(locked, fighter)
    if fighter.hired_sword_id is not None:
        raise ValidationError(
            _("%(name)s is a hired sword: let him go instead (he leaves with his own gear).")
            % {"name": fighter.name}
        )
    if fighter.status == Fighter.Status.CAPTURED:
        raise ValidationError(
            _("%(name)s is a captive: his captor decides his fate first.") % {"name": fighter.name}
        )
    name = fighter.name
    group = fighter.group
    stashed = _leave_roster(locked, fighter, status=None)
    if group is not None and not group.members.exists():
        group.delete()
    _record_dismissal(locked, name, stashed)


@undo.undoable("dismissed", undo.describe_who)
@roster_atomic
def group_dismiss(*, group: HenchmanGroup, expected_version: int | None = None) -> None:
    """Dismiss a whole henchman group; its equipment (one per member) goes to the stash."""
    locked = lock_warband(group.warband_id, expected_version)
    group = roster_group(locked, group)
    members = group_size(group)
    stashed = to_stash(locked, list(group.equipment.select_related("equipment")), members)
    name = group.name
    group.members.all().delete()
    group.delete()
    _record_dismissal(locked, name, stashed)


@undo.undoable("retired", undo.describe_who)
@roster_atomic
def fighter_retire(*, fighter: Fighter, expected_version: int | None = None) -> Fighter:
    """Retire a warrior: he stays on the record as retired; his equipment goes to the stash."""
    locked = lock_warband(fighter.warband_id, expected_version)
    fighter = require_in_roster(roster_fighter(locked, fighter))
    _leave_roster(locked, fighter, status=Fighter.Status.RETIRED)
    finish_change(locked)
    return fighter


# --- renaming, leading -----------------------------------------------------------------------


def _roster_rename(
    target: Fighter | HenchmanGroup, find, expected_version: int | None, fields: dict[str, Any]
):
    """Rename a fighter or a group (the only field a player edits directly)."""
    unknown = set(fields) - {"name"}
    if unknown:
        raise ValidationError(
            {field: _("This field cannot be changed here.") for field in sorted(unknown)}
        )
    locked = lock_warband(target.warband_id, expected_version)
    target = find(locked, target)
    if "name" in fields:
        target.name = limits.clean_name(fields["name"])
        target.save(update_fields=["name"])
    finish_change(locked, roster_changed=False)
    return target


@roster_atomic
def fighter_update(
    *, fighter: Fighter, expected_version: int | None = None, **fields: Any
) -> Fighter:
    """Rename a warrior (the only field a player edits directly)."""
    return _roster_rename(fighter, roster_fighter, expected_version, fields)


@roster_atomic
def group_update(
    *, group: HenchmanGroup, expected_version: int | None = None, **fields: Any
) -> HenchmanGroup:
    """Rename a henchman group."""
    return _roster_rename(group, roster_group, expected_version, fields)


@roster_atomic
def fighter_make_leader(*, fighter: Fighter, expected_version: int | None = None) -> Fighter:
    """Make a hero the leader (e.g. after the leader's death); the old one becomes a hero."""
    locked = lock_warband(fighter.warband_id, expected_version)
    fighter = roster_fighter(locked, fighter)
    if not fighter.is_hero or fighter.status not in IN_ROSTER:
        raise ValidationError(_("Only a hero in the roster can lead the warband."))
    if fighter.hired_sword_id is not None:
        raise ValidationError(_hired_sword_never_leads(fighter))
    locked.fighters.filter(is_leader=True).exclude(pk=fighter.pk).update(is_leader=False)
    fighter.is_leader = True
    fighter.save(update_fields=["is_leader"])
    finish_change(locked)
    return fighter
