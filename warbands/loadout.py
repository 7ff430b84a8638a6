"""What one fighter (or one henchman group) may carry at once.

Works on the catalogue's data (kind, two_handed, rules keys), so an organiser's edit in the
admin changes the checks. Returns the first problem as a message a player understands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _


def _is_dagger(item) -> bool:
    return bool(item.rules.get("first_free"))


def loadout_problem(items: Sequence[Any], *, settings: Mapping[str, Any] | None = None) -> str:
    """``items`` are ``Equipment`` rows (one per item carried); "" when the loadout is legal."""
    settings = settings or {}
    melee = [item for item in items if item.kind == "melee"]
    missile = [item for item in items if item.kind == "missile"]
    daggers = [item for item in melee if _is_dagger(item)]
    # The free dagger does not count toward the close-combat weapons a warrior may carry.
    counted_melee = len(melee) - min(len(daggers), 1)
    max_melee = settings.get("max_close_combat_weapons", 2)
    if counted_melee > max_melee:
        return _("A warrior carries at most %(max)d close-combat weapons besides his dagger.") % {
            "max": max_melee
        }
    max_missile = settings.get("max_missile_weapons", 2)
    if len(missile) > max_missile:
        return _("A warrior carries at most %(max)d missile weapons.") % {"max": max_missile}
    for kind, label in (
        ("armour", _("one suit of armour")),
        ("shield", _("one shield")),
        ("helmet", _("one helmet")),
    ):
        if sum(1 for item in items if item.kind == kind) > 1:
            return _("A warrior wears at most %(what)s.") % {"what": label}
    shields = [item for item in items if item.kind == "shield"]
    bucklers = [item for item in shields if item.rules.get("buckler")]
    for item in melee:
        others = [other for other in melee if other is not item and not _is_dagger(other)]
        if item.rules.get("mounted_only"):
            return _("%(item)s can only be used mounted.") % {"item": item.display_name}
        if item.two_handed and shields:
            return _("%(item)s needs both hands: it cannot be carried with %(shield)s.") % {
                "item": item.display_name,
                "shield": shields[0].display_name,
            }
        if (item.two_handed or item.rules.get("no_second_weapon")) and others:
            return _(
                "%(item)s cannot be combined with a second close-combat weapon (%(other)s)."
            ) % {"item": item.display_name, "other": others[0].display_name}
        if item.rules.get("no_buckler") and bucklers:
            return _("%(item)s cannot be used with %(buckler)s.") % {
                "item": item.display_name,
                "buckler": bucklers[0].display_name,
            }
    return ""
