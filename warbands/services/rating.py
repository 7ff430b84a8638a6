"""Rating and advances due of a whole roster, stored on the rows (the warband row held locked).

The rules are the engine's and the numbers the content pack's (see ``warbands.progression``);
this module reads the roster once and writes only what changed. ``finish_change`` and
``roster_batch`` call it; ``warband_rating_refresh`` (``warbands.services.warbands``) is the
service.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..models import Fighter, HenchmanGroup, Warband, WarbandType
from ..packs.selectors import version_tables
from ..progression import advances_due, henchman_thresholds, hero_thresholds, roster_rating

IN_ROSTER = Fighter.IN_ROSTER


def pack_settings(warband: Warband) -> dict[str, Any]:
    """The content pack's settings (thresholds, rating points, optional rules)."""
    return warband.warband_type.pack.settings or {}


def advance_thresholds(warband: Warband) -> tuple[Sequence[int], Sequence[int]]:
    """The experience at which the warband's heroes and henchmen gain an advance: its pack
    version's ``advance_thresholds`` table when the version sets one, else the pack's settings,
    else the rules'. The version's tables come with the warband's type when it was read with
    it (the sheet); else one small query (their ``tables`` only), for a pack's warbands only."""
    settings = pack_settings(warband)
    hero, henchman = hero_thresholds(settings), henchman_thresholds(settings)
    kind = warband.warband_type
    if kind.pack_version_id is not None:
        if WarbandType.pack_version.is_cached(kind):
            tables = (kind.pack_version.document or {}).get("tables") or {}
        else:
            tables = version_tables(kind.pack_version_id)
        own = tables.get("advance_thresholds")
        if isinstance(own, dict):
            hero, henchman = own.get("hero", hero), own.get("henchman", henchman)
    return tuple(hero), tuple(henchman)


def roster_refresh(warband: Warband) -> tuple[list[Fighter], list[HenchmanGroup]]:
    """Set ``warband.rating`` (not saved) and save every fighter's and group's advances due
    that changed; returns the fighters and groups it read (advances due set)."""
    fighters = list(warband.fighters.select_related("fighter_type", "hired_sword"))
    groups = list(warband.groups.all())
    changed_fighters, changed_groups = roster_compute(warband, fighters, groups)
    if changed_fighters:
        Fighter.objects.bulk_update(changed_fighters, ["advances_due"])
    if changed_groups:
        HenchmanGroup.objects.bulk_update(changed_groups, ["advances_due"])
    return fighters, groups


def roster_compute(
    warband: Warband, fighters: list[Fighter], groups: list[HenchmanGroup]
) -> tuple[list[Fighter], list[HenchmanGroup]]:
    """Set ``warband.rating`` and each row's advances due in memory, from the whole roster
    given (fighters with ``fighter_type`` and ``hired_sword``); returns the fighters and the
    groups whose advances due changed (nothing is saved)."""
    settings = pack_settings(warband)
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
    hero, henchman = advance_thresholds(warband)
    changed_fighters = _set_advances_due(
        fighters,
        lambda fighter: (
            _due(hero, True, fighter.hired_experience, fighter)
            if fighter.group_id is None and fighter.fighter_type.can_gain_experience
            else 0
        ),
    )
    changed_groups = _set_advances_due(groups, lambda group: _due(henchman, False, 0, group))
    return changed_fighters, changed_groups


def _due(thresholds, hero: bool, start: int, row) -> int:
    return advances_due(
        thresholds, hero=hero, start=start, experience=row.experience, taken=len(row.advances)
    )


def _set_advances_due(rows: list, due_of: Callable[[Any], int]) -> list:
    """Set each row's advances due; returns those that changed."""
    changed = []
    for row in rows:
        due = due_of(row)
        if due != row.advances_due:
            row.advances_due = due
            changed.append(row)
    return changed
