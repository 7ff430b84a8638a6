"""Rating and advances due of a whole roster, stored on the rows (the warband row held locked).

The rules are the engine's and the numbers the content pack's (see ``warbands.progression``);
this module reads the roster once and writes only what changed. ``finish_change`` and
``roster_batch`` call it; ``warband_rating_refresh`` (``warbands.services.warbands``) is the
service.
"""

from __future__ import annotations

from typing import Any

from ..models import Fighter, HenchmanGroup, Warband
from ..progression import advances_due, henchman_thresholds, hero_thresholds, roster_rating

IN_ROSTER = Fighter.IN_ROSTER


def pack_settings(warband: Warband) -> dict[str, Any]:
    """The content pack's settings (thresholds, rating points, optional rules)."""
    return warband.warband_type.pack.settings or {}


def roster_refresh(warband: Warband) -> tuple[list[Fighter], list[HenchmanGroup]]:
    """Set ``warband.rating`` (not saved) and save every fighter's and group's advances due
    that changed; returns the fighters and groups it read (advances due set)."""
    settings = pack_settings(warband)
    fighters = list(warband.fighters.select_related("fighter_type"))
    groups = list(warband.groups.all())
    warband.rating = roster_rating(
        (
            (fighter.fighter_type.is_large, fighter.experience)
            for fighter in fighters
            if fighter.status in IN_ROSTER
        ),
        settings,
    )
    changed_fighters = []
    for fighter in fighters:
        due = 0
        if fighter.group_id is None and fighter.fighter_type.can_gain_experience:
            due = advances_due(
                hero_thresholds(settings),
                hero=True,
                start=fighter.hired_experience,
                experience=fighter.experience,
                taken=len(fighter.advances),
            )
        if due != fighter.advances_due:
            fighter.advances_due = due
            changed_fighters.append(fighter)
    if changed_fighters:
        Fighter.objects.bulk_update(changed_fighters, ["advances_due"])
    changed_groups = []
    for group in groups:
        due = advances_due(
            henchman_thresholds(settings),
            hero=False,
            start=0,
            experience=group.experience,
            taken=len(group.advances),
        )
        if due != group.advances_due:
            group.advances_due = due
            changed_groups.append(group)
    if changed_groups:
        HenchmanGroup.objects.bulk_update(changed_groups, ["advances_due"])
    return fighters, groups
