"""The battle as it starts: who fights on each side, their profiles, and the rout thresholds.

A setup is plain data (the ``setup`` entry of a battle log): each side is a warband with its
fighters. The rout threshold of a side is a quarter of its starting warriors, rounded up
(Reglas › Liderazgo y psicología › El chequeo de retirada: "una cuarta parte (25%) o más";
twelve warriors → three).

Each fighter carries his profile, his special-rule keys (his type's, his skills' and his
injuries'; see :mod:`rules.engine.vocabulary`), his equipment slugs and, since log version 2,
his ``items``: each carried item's kind and ``rules`` data from the catalogue, so the tracker
uses the league's own weapons and reads the rare items' keys. ``version`` 2 logs know the
combats (charges, close-combat phases) and refuse what the rules forbid; a log set up before
(version 1, no ``version`` in its setup) folds as it always did.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine import vocabulary as v
from rules.engine.equipment import WEAPONS, Equipment, equipment_from_catalogue
from rules.engine.i18n import gettext_noop as _
from rules.engine.optional_rules import CHALLENGES, OPTIONAL_RULE_KEYS
from rules.engine.tracker.errors import TrackerError

MAX_SIDES = 4
MAX_FIGHTERS = 40
MAX_ITEMS = 30
PROFILE_FIELDS = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")
LOG_VERSION = 2
"""The log version a new setup writes (see the module's docstring)."""


def rout_threshold(warriors: int) -> int:
    """Chequeo de Retirada: out of action from a quarter (25 %) of the starting warriors, rounded
    up, the warband tests at the start of each of its turns (12 warriors → 3)."""
    if isinstance(warriors, bool) or not isinstance(warriors, int) or warriors < 1:
        raise TrackerError(
            _("A warband needs at least one warrior."), code="setup.no_fighters", field="sides"
        )
    return math.ceil(warriors / 4)


@dataclass(frozen=True)
class FighterSetup:
    """One warrior as he starts the battle (``id`` is his roster id)."""

    id: int
    side: int
    name: str
    profile: Mapping[str, Any]
    leader: bool = False
    hero: bool = False
    rules: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    items: tuple[Mapping[str, Any], ...] = ()
    race: str = ""

    @property
    def effective_rules(self) -> frozenset[str]:
        """His keys with what his skills and items grant (:func:`vocabulary.effective_rules`)."""
        return v.effective_rules(self.rules, self.items)

    @property
    def gear(self) -> dict[str, Any]:
        """The rule keys of the items he carries that are no weapon's nor armour's field (the
        rare items': ``first_wound_save``, ``missile_hit_penalty``…), merged."""
        merged: dict[str, Any] = {}
        for item in self.items:
            for key, value in (item.get("rules") or {}).items():
                merged.setdefault(key, value)
        return merged

    def gear_of(self, key: str) -> Any:
        return self.gear.get(key)

    @property
    def catalogue_items(self) -> tuple[Equipment, ...]:
        """His weapons and armour as the engine's items (the league's own rows)."""
        rows = []
        for item in self.items:
            row = equipment_from_catalogue(
                str(item.get("slug")),
                str(item.get("name") or item.get("slug")),
                str(item.get("kind")),
                item.get("rules") or {},
            )
            if row is not None:
                rows.append(row)
        return tuple(rows)

    def carried(self, *kinds: str) -> list[Equipment]:
        """His items of ``kinds``, in the order he carries them (the catalogue's rows, else the
        default table's for a setup without ``items``)."""
        own = {row.slug: row for row in self.catalogue_items}
        rows = [own.get(slug) or WEAPONS.get(slug) for slug in self.equipment]
        return [row for row in rows if row is not None and row.kind in kinds]

    @property
    def leadership(self) -> int:
        return int(self.profile.get("ld", 7))

    @property
    def wounds(self) -> int:
        return int(self.profile.get("w", 1))

    def to_dict(self) -> dict[str, Any]:
        data = {
            "id": self.id,
            "name": self.name,
            "profile": dict(self.profile),
            "leader": self.leader,
            "hero": self.hero,
            "rules": list(self.rules),
            "equipment": list(self.equipment),
        }
        if self.items:
            data["items"] = [dict(item) for item in self.items]
        if self.race:
            data["race"] = self.race
        return data


@dataclass(frozen=True)
class SideSetup:
    warband: int
    name: str
    fighters: tuple[FighterSetup, ...]

    @property
    def rout_threshold(self) -> int:
        return rout_threshold(len(self.fighters))

    @property
    def leader(self) -> FighterSetup | None:
        return next((f for f in self.fighters if f.leader), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "warband": self.warband,
            "name": self.name,
            "rout_threshold": self.rout_threshold,
            "fighters": [f.to_dict() for f in self.fighters],
        }


@dataclass(frozen=True)
class BattleSetupData:
    """Every side in the order they move (``sides[0]`` moves first), and the scenario."""

    sides: tuple[SideSetup, ...]
    scenario: str = ""
    attacker: int | None = None
    underdog: Mapping[int, int] | None = None
    optional_rules: tuple[str, ...] = ()
    version: int = 1

    @property
    def challenges(self) -> bool:
        """Desafíos are an optional rule the campaign turns on."""
        return CHALLENGES in self.optional_rules

    @property
    def strict(self) -> bool:
        """A log that knows the combats (version 2 and later)."""
        return self.version >= 2

    def side(self, warband: int) -> SideSetup:
        return next(s for s in self.sides if s.warband == warband)

    def to_dict(self) -> dict[str, Any]:
        data = {
            "scenario": self.scenario,
            "attacker": self.attacker,
            "underdog": {str(k): value for k, value in (self.underdog or {}).items()},
            "optional_rules": list(self.optional_rules),
            "sides": [s.to_dict() for s in self.sides],
        }
        if self.version > 1:
            data["version"] = self.version
        return data


def _whole(value: Any, field: str, low: int = 0, high: int = 10**9) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TrackerError(
            _("%(field)s must be a whole number from %(low)d to %(high)d."),
            code="setup.invalid",
            field=field,
            low=low,
            high=high,
        )
    return value


def _characteristic(name: str, value: Any, field: str) -> int | float:
    """A characteristic: a whole number from 0 to 10; M in cm from 0 to 30, halves allowed (a
    dwarf moves 7.5 cm)."""
    if name == "m" and isinstance(value, float) and not isinstance(value, bool):
        if not 0 <= value <= 30 or (value * 2) % 1:
            raise TrackerError(
                _("%(field)s must be a distance in cm from 0 to 30."),
                code="setup.invalid",
                field=field,
            )
        return int(value) if value.is_integer() else value
    return _whole(value, field, 0, 30 if name == "m" else 10)


def _fighter(data: Any, side: int, index: str) -> FighterSetup:
    if not isinstance(data, Mapping):
        raise TrackerError(_("Each fighter is an object."), code="setup.invalid", field=index)
    profile = data.get("profile") or {}
    if not isinstance(profile, Mapping):
        raise TrackerError(
            _("A profile is an object."), code="setup.invalid", field=f"{index}.profile"
        )
    clean = {}
    for name in PROFILE_FIELDS:
        if name in profile:
            clean[name] = _characteristic(name, profile[name], f"{index}.profile.{name}")
    rules = data.get("rules") or ()
    equipment = data.get("equipment") or ()
    if not isinstance(rules, list | tuple) or not all(isinstance(r, str) for r in rules):
        raise TrackerError(
            _("Special rules are a list of names."), code="setup.invalid", field=f"{index}.rules"
        )
    if not isinstance(equipment, list | tuple) or not all(isinstance(e, str) for e in equipment):
        raise TrackerError(
            _("Equipment is a list of names."), code="setup.invalid", field=f"{index}.equipment"
        )
    return FighterSetup(
        id=_whole(data.get("id"), f"{index}.id", 1),
        side=side,
        name=str(data.get("name") or data.get("id"))[:80],
        profile=clean,
        leader=bool(data.get("leader")),
        hero=bool(data.get("hero")),
        rules=tuple(rules),
        equipment=tuple(equipment),
        items=_items(data.get("items"), f"{index}.items"),
        race=str(data.get("race") or "")[:40],
    )


def _items(value: Any, field: str) -> tuple[Mapping[str, Any], ...]:
    """Each carried item: ``{"slug", "name", "kind", "rules": {…}}`` (the catalogue's data)."""
    items = value or ()
    if not isinstance(items, list | tuple) or len(items) > MAX_ITEMS:
        raise TrackerError(
            _("Items are a list of at most %(max)d objects."),
            code="setup.invalid",
            field=field,
            max=MAX_ITEMS,
        )
    clean = []
    for item in items:
        if (
            not isinstance(item, Mapping)
            or not isinstance(item.get("slug"), str)
            or not isinstance(item.get("rules") or {}, Mapping)
        ):
            raise TrackerError(
                _("Each item is an object with its slug, kind and rules."),
                code="setup.invalid",
                field=field,
            )
        clean.append(
            {
                "slug": item["slug"][:80],
                "name": str(item.get("name") or item["slug"])[:80],
                "kind": str(item.get("kind") or "misc")[:20],
                "rules": dict(item.get("rules") or {}),
            }
        )
    return tuple(clean)


def setup_from_dict(data: Any) -> BattleSetupData:
    """Validate a setup payload (two to four sides, each with warriors, one leader at most)."""
    if not isinstance(data, Mapping):
        raise TrackerError(_("The setup is an object."), code="setup.invalid", field="setup")
    raw_sides = data.get("sides")
    if not isinstance(raw_sides, list | tuple) or not 2 <= len(raw_sides) <= MAX_SIDES:
        raise TrackerError(
            _("A battle has from 2 to %(max)d warbands."),
            code="setup.sides",
            field="sides",
            max=MAX_SIDES,
        )
    sides: list[SideSetup] = []
    seen_fighters: set[int] = set()
    for number, raw in enumerate(raw_sides):
        if not isinstance(raw, Mapping):
            raise TrackerError(_("Each side is an object."), code="setup.invalid", field="sides")
        warband = _whole(raw.get("warband"), f"sides.{number}.warband", 1)
        raw_fighters = raw.get("fighters")
        if not isinstance(raw_fighters, list | tuple) or not raw_fighters:
            raise TrackerError(
                _("Every warband needs at least one warrior."),
                code="setup.no_fighters",
                field=f"sides.{number}.fighters",
            )
        if len(raw_fighters) > MAX_FIGHTERS:
            raise TrackerError(
                _("At most %(max)d warriors per warband."),
                code="setup.too_many",
                field=f"sides.{number}.fighters",
                max=MAX_FIGHTERS,
            )
        fighters = tuple(
            _fighter(item, warband, f"sides.{number}.fighters.{index}")
            for index, item in enumerate(raw_fighters)
        )
        if sum(1 for f in fighters if f.leader) > 1:
            raise TrackerError(
                _("A warband has one leader."), code="setup.leaders", field=f"sides.{number}"
            )
        for fighter in fighters:
            if fighter.id in seen_fighters:
                raise TrackerError(
                    _("Fighter %(id)d is listed twice."),
                    code="setup.duplicate",
                    field=f"sides.{number}.fighters",
                    id=fighter.id,
                )
            seen_fighters.add(fighter.id)
        sides.append(SideSetup(warband, str(raw.get("name") or warband)[:80], fighters))
    if len({s.warband for s in sides}) != len(sides):
        raise TrackerError(
            _("A warband cannot fight itself."), code="setup.duplicate", field="sides"
        )
    attacker = data.get("attacker")
    if attacker is not None and attacker not in {s.warband for s in sides}:
        raise TrackerError(
            _("The attacker must be one of the warbands."), code="setup.invalid", field="attacker"
        )
    underdog = {int(k): int(value) for k, value in (data.get("underdog") or {}).items()}
    return BattleSetupData(
        sides=tuple(sides),
        scenario=str(data.get("scenario") or "")[:120],
        attacker=attacker,
        underdog=underdog,
        optional_rules=_optional_rules(data.get("optional_rules")),
        version=_whole(data.get("version", 1), "version", 1, LOG_VERSION),
    )


def _optional_rules(value: Any) -> tuple[str, ...]:
    rules = value or ()
    if not isinstance(rules, list | tuple) or not all(r in OPTIONAL_RULE_KEYS for r in rules):
        raise TrackerError(
            _("optional_rules lists some of %(choices)s."),
            code="setup.invalid",
            field="optional_rules",
            choices=", ".join(OPTIONAL_RULE_KEYS),
        )
    return tuple(dict.fromkeys(rules))
