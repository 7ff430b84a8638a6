"""Getting better: experience, profile changes (within the racial maximum), advances, skills."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import (
    CHARACTERISTIC_FIELDS,
    PROFILE_FIELDS,
    SPANISH_NAMES,
    Fighter,
    HenchmanGroup,
    Skill,
)
from .unit import (
    finish_change,
    lock_warband,
    roster_atomic,
    roster_fighter,
    roster_holder,
    roster_members_set,
    roster_save,
)


@roster_atomic
def fighter_add_experience(
    *, fighter: Fighter | None = None, group: HenchmanGroup | None = None, amount: int
) -> int:
    """Add experience to a hero or to a henchman group (all its members); returns the total.

    Creatures that never gain experience (animals, trolls) stay at 0.
    """
    locked = lock_warband((fighter or group).warband_id)
    fighter, group = roster_holder(locked, fighter, group)
    amount = int(amount)
    if fighter is not None:
        if fighter.fighter_type.can_gain_experience:
            fighter.experience = max(0, fighter.experience + amount)
            roster_save(locked, fighter, ["experience"])
        total = fighter.experience
    else:
        if group.fighter_type.can_gain_experience:
            group.experience = max(0, group.experience + amount)
            roster_save(locked, group, ["experience"])
            roster_members_set(locked, group, experience=group.experience)
        total = group.experience
    finish_change(locked)
    return total


def _apply_change(target, race, characteristic: str, delta: int) -> int:
    if characteristic not in PROFILE_FIELDS:
        raise ValidationError(
            {"characteristic": _("Unknown characteristic: %(name)s.") % {"name": characteristic}}
        )
    current = getattr(target, characteristic)
    maximum = getattr(race, f"max_{characteristic}")
    new = current + delta
    if delta > 0 and new > maximum:
        raise ValidationError(
            _("%(name)s is already at the racial maximum for %(char)s (%(max)s).")
            % {"name": target.name, "char": SPANISH_NAMES[characteristic], "max": maximum}
        )
    new = max(0, new)
    if characteristic in CHARACTERISTIC_FIELDS:
        new = int(new)
    setattr(target, characteristic, new)
    return new


@roster_atomic
def fighter_apply_profile_change(
    *,
    fighter: Fighter | None = None,
    group: HenchmanGroup | None = None,
    characteristic: str,
    delta: int | float,
    source: Model | None = None,
) -> Any:
    """Raise or lower one characteristic (``m`` in cm), never above the racial maximum.

    A henchman's change applies to his whole group (they share one profile).
    """
    locked = lock_warband((fighter or group).warband_id)
    fighter, group = roster_holder(locked, fighter, group)
    if fighter is not None:
        _apply_change(fighter, fighter.fighter_type.race, characteristic, delta)
        roster_save(locked, fighter, [characteristic])
        target = fighter
    else:
        value = _apply_change(group, group.fighter_type.race, characteristic, delta)
        roster_save(locked, group, [characteristic])
        roster_members_set(locked, group, **{characteristic: value})
        target = group
    finish_change(locked)
    return target


@roster_atomic
def fighter_add_advance(
    *,
    fighter: Fighter | None = None,
    group: HenchmanGroup | None = None,
    record: dict,
    characteristic: str | None = None,
    delta: int | float = 1,
    skill: Skill | None = None,
) -> Any:
    """Take one advance due: record it and apply its characteristic increase or new skill."""
    locked = lock_warband((fighter or group).warband_id)
    fighter, group = roster_holder(locked, fighter, group)
    target = fighter or group
    if target.advances_due < 1:
        raise ValidationError(_("%(name)s has no advance due.") % {"name": target.name})
    if characteristic:
        value = _apply_change(target, target.fighter_type.race, characteristic, delta)
        if group is not None:
            roster_members_set(locked, group, **{characteristic: value})
    if skill is not None:
        if fighter is None:
            raise ValidationError(_("Henchmen do not learn skills."))
        _check_skill(fighter, skill)
        fighter.skills.add(skill)
    target.advances = [*target.advances, {**record, "at": timezone.now().isoformat()}]
    roster_save(locked, target, ["advances", *([characteristic] if characteristic else [])])
    finish_change(locked)
    return target


def _check_skill(fighter: Fighter, skill: Skill) -> None:
    allowed = set(fighter.fighter_type.skill_lists.values_list("slug", flat=True))
    allowed |= set(fighter.skill_lists)
    if skill.skill_list.slug not in allowed:
        raise ValidationError(
            _("%(name)s cannot learn %(skill)s: %(list)s is not one of his skill lists.")
            % {"name": fighter.name, "skill": skill.name, "list": skill.skill_list.name}
        )
    if fighter.skills.filter(pk=skill.pk).exists():
        raise ValidationError(
            _("%(name)s already has %(skill)s.") % {"name": fighter.name, "skill": skill.name}
        )


@roster_atomic
def fighter_add_skill(*, fighter: Fighter, skill: Skill) -> Fighter:
    """A hero learns a skill from one of his skill lists."""
    locked = lock_warband(fighter.warband_id)
    fighter = roster_fighter(locked, fighter)
    if not fighter.is_hero:
        raise ValidationError(_("Henchmen do not learn skills."))
    _check_skill(fighter, skill)
    fighter.skills.add(skill)
    finish_change(locked)
    return fighter
