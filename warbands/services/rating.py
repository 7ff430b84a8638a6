"""Rating and advances due of a whole roster, stored on the rows (the warband row held locked).

The rules are the engine's and the numbers the content pack's (see ``warbands.progression``);
this module reads the roster once and writes only what changed. ``finish_change`` and
``roster_batch`` call it; ``warband_rating_refresh`` (``warbands.services.warbands``) is the
service.
"""

from __future__ import annotations

from collections.abc import Callable
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
    fighters = list(warband.fighters.select_related("fighter_type", "hired_sword"))
    groups = list(warband.groups.all())
    warband.rating = roster_rating(
        (
            (
                fighter.fighter_type.is_large,
                fighter.experience,
                fighter.hired_sword.rating_value if fighter.hired_sword_id else None,
            )
            for fighter in fighters
            if fighter.status in IN_ROSTER
        ),
        settings,
    )
    hero = hero_thresholds(settings)
    henchman = henchman_thresholds(settings)
    _store_advances_due(
        Fighter,
        fighters,
        lambda fighter: (
            _due(hero, True, fighter.hired_experience, fighter)
            if fighter.group_id is None and fighter.fighter_type.can_gain_experience
            else 0
        ),
    )
    _store_advances_due(HenchmanGroup, groups, lambda group: _due(henchman, False, 0, group))
    return fighters, groups


def _due(thresholds, hero: bool, start: int, row) -> int:
    return advances_due(
        thresholds, hero=hero, start=start, experience=row.experience, taken=len(row.advances)
    )


def _store_advances_due(model, rows: list, due_of: Callable[[Any], int]) -> None:
    """Set each row's advances due; save (in one statement) those that changed."""
    changed = []
    for row in rows:
        due = due_of(row)
        if due != row.advances_due:
            row.advances_due = due
            changed.append(row)
    if changed:
        model.objects.bulk_update(changed, ["advances_due"])
