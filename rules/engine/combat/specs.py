"""What a phase starts from: the attacker, defender and shooter specs, the campaign's rule
options, the defender's statuses, and :func:`spec_from_dict` to build them from JSON."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, cast

from rules.engine.equipment import ARMOUR, HELMET, MELEE, MISSILE, SHIELD, Equipment, equipment_item
from rules.engine.errors import SpecError
from rules.engine.explain import jsonable
from rules.engine.i18n import gettext_noop as _
from rules.engine.profile import MAX_CHARACTERISTIC
from rules.engine.tables import (
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    STUNNED,
)
from rules.engine.validation import spec_fields

STANDING = "standing"
STATUSES = (STANDING, KNOCKED_DOWN, STUNNED)
OUTCOMES = ("unharmed", "wounded", KNOCKED_DOWN, STUNNED, OUT_OF_ACTION)
SEVERITY = {STANDING: 0, KNOCKED_DOWN: 1, STUNNED: 2, OUT_OF_ACTION: 3}
SEVERITY_NAMES = {1: KNOCKED_DOWN, 2: STUNNED, 3: OUT_OF_ACTION}
PARRY_MODES = ("none", "single", "reroll")
AUTOMATIC = 7
"""Modified to-hit value given to automatic hits: above any parry roll."""
MAX_ATTACKS = 20
CHARACTERISTIC = (0, MAX_CHARACTERISTIC)
TO_HIT_MODIFIER = (-5, 5)


@dataclass(frozen=True)
class RuleOptions:
    """Rule options a campaign may switch (defaults follow the reference)."""

    natural_one_misses: bool = True
    critical_hits: bool = True
    one_critical_per_phase: bool = True
    best_save: int = 2

    def __post_init__(self) -> None:
        spec_fields(self, flags=("natural_one_misses", "critical_hits", "one_critical_per_phase"))
        spec_fields(self, numbers={"best_save": (1, 6)})

    def to_dict(self) -> dict[str, Any]:
        return {
            "natural_one_misses": self.natural_one_misses,
            "critical_hits": self.critical_hits,
            "one_critical_per_phase": self.one_critical_per_phase,
            "best_save": self.best_save,
        }


DEFAULT_RULES = RuleOptions()


@dataclass(frozen=True)
class AttackerSpec:
    """A warrior attacking in close combat.

    ``ws`` (HA), ``strength`` (F, base), ``attacks`` (A, base). ``weapon``: melee slug or
    ``None`` for a plain hand weapon; ``offhand``: a second one-handed weapon (+1 attack, made
    with it, added after frenzy doubles A). ``first_round``: the first round of this combat
    (hatred, fear, lanza, mangual/mayal). ``diving_charge``: +1 F and +1 to hit this phase.
    ``fear_failed``: failed the fear test when charged, so only 6s hit in the first round.
    ``reroll_misses``: misses are re-rolled whatever the round (a skill's re-roll, decided by
    the caller). ``to_wound_modifier``: added to his to-wound rolls (black venom +1);
    ``critical_bonus``: added to his critical-hit rolls; ``injury_bonus``: added to the injury
    rolls he causes. ``extra_attacks``: attacks added after frenzy doubles A, like a second
    weapon's (combat master). ``items``: his own catalogue items (looked up before the default
    table).
    """

    ws: int = 3
    strength: int = 3
    attacks: int = 1
    weapon: str | None = None
    offhand: str | None = None
    first_round: bool = True
    hatred: bool = False
    frenzy: bool = False
    diving_charge: bool = False
    fear_failed: bool = False
    to_hit_modifier: int = 0
    reroll_misses: bool = False
    to_wound_modifier: int = 0
    critical_bonus: int = 0
    injury_bonus: int = 0
    extra_attacks: int = 0
    items: tuple[Equipment, ...] = ()

    def __post_init__(self) -> None:
        spec_fields(
            self,
            numbers={
                "ws": CHARACTERISTIC,
                "strength": CHARACTERISTIC,
                "attacks": CHARACTERISTIC,
                "extra_attacks": (0, 5),
                "to_hit_modifier": TO_HIT_MODIFIER,
                "to_wound_modifier": TO_HIT_MODIFIER,
                "critical_bonus": (0, 5),
                "injury_bonus": (0, 5),
            },
            flags=(
                "first_round",
                "hatred",
                "frenzy",
                "diving_charge",
                "fear_failed",
                "reroll_misses",
            ),
        )
        _valid_items(self.items)
        main = self.main_weapon
        if self.offhand is not None:
            off = self._item(self.offhand, "offhand")
            if main.two_handed or off.two_handed:
                raise SpecError(
                    _("A two-handed weapon leaves no hand for a second weapon."), field="offhand"
                )
            if main.no_second_weapon or off.no_second_weapon:
                raise SpecError(
                    _("%(weapon)s leaves no hand for a second weapon."),
                    field="offhand",
                    weapon=(main if main.no_second_weapon else off).slug,
                )
        if self.total_attacks > MAX_ATTACKS:
            raise SpecError(_("Too many attacks."), field="attacks")

    def _item(self, slug: str, field: str) -> Equipment:
        return equipment_item(slug, kinds=(MELEE,), field=field, items=self.items)

    @property
    def main_weapon(self) -> Equipment:
        if self.weapon is None:
            return HAND_WEAPON
        return self._item(self.weapon, "weapon")

    @property
    def offhand_weapon(self) -> Equipment | None:
        return None if self.offhand is None else self._item(self.offhand, "offhand")

    @property
    def total_attacks(self) -> int:
        """A, doubled by frenzy (furia asesina), then +1 for a second weapon (and any extra)."""
        base = self.attacks * (2 if self.frenzy else 1) + self.extra_attacks
        return base + (1 if self.offhand is not None and base > 0 else 0)

    def weapon_strength(self, item: Equipment) -> int:
        bonus = item.strength_bonus + (item.strength_bonus_first_round if self.first_round else 0)
        return min(MAX_CHARACTERISTIC, self.strength + bonus + (1 if self.diving_charge else 0))

    def to_dict(self) -> dict[str, Any]:
        return cast(
            dict[str, Any], jsonable({k: v for k, v in self.__dict__.items() if k != "items"})
        )


def _valid_items(items: Any) -> None:
    if not isinstance(items, tuple) or not all(isinstance(i, Equipment) for i in items):
        raise SpecError(_("items are the warrior's own equipment rows."), field="items")


HAND_WEAPON = Equipment("arma-de-mano", "Arma de mano", MELEE, notes=_("No special rules."))


@dataclass(frozen=True)
class DefenderSpec:
    """The warrior on the receiving end.

    ``wounds``: H he has left now (0 if already at 0: every wound rolls on the injury table).
    ``strength``: his base F (for the parry limit). ``armour``: armour, shield and helmet slugs;
    ``weapons``: weapons he holds (espada and escudo-pequeno give parry). ``parry`` overrides the
    parry derived from the equipment (``"none"``, ``"single"``, ``"reroll"``). ``status``:
    ``standing``, ``knocked_down`` or ``stunned``. ``large``: a large target (+1 to be shot).
    ``save_modifier``: any other modifier to his save roll (+1 improves it).
    ``special_save``: a save no weapon modifies, after the armour's (a rune, step aside,
    regeneration). ``first_wound_save``: the lucky charm still unused (the first wound he
    suffers is ignored on this roll or more). ``stun_to_knockdown``: one stunned result is
    knocked down instead (lembas, thick skull), still unused. ``hard_to_kill``: out of action
    only on a 6 to injure (a 5 stuns him). ``strength_against``: added to the F of whoever hits
    him in close combat (resilient −1). ``missile_hit_modifier``: added to the to-hit rolls of
    whoever shoots at him (an elven cloak −1). ``items``: his own catalogue items.
    """

    ws: int = 3
    toughness: int = 3
    wounds: int = 1
    strength: int = 3
    armour: tuple[str, ...] = ()
    weapons: tuple[str, ...] = ()
    parry: str | None = None
    status: str = STANDING
    large: bool = False
    save_modifier: int = 0
    special_save: int | None = None
    first_wound_save: int | None = None
    stun_to_knockdown: bool = False
    hard_to_kill: bool = False
    strength_against: int = 0
    missile_hit_modifier: int = 0
    items: tuple[Equipment, ...] = ()

    def __post_init__(self) -> None:
        spec_fields(
            self,
            numbers={
                "ws": CHARACTERISTIC,
                "toughness": (1, MAX_CHARACTERISTIC),
                "wounds": CHARACTERISTIC,
                "strength": CHARACTERISTIC,
                "save_modifier": (-6, 6),
                "strength_against": (-5, 5),
                "missile_hit_modifier": TO_HIT_MODIFIER,
            },
            flags=("large", "stun_to_knockdown", "hard_to_kill"),
        )
        for name in ("special_save", "first_wound_save"):
            if getattr(self, name) is not None:
                spec_fields(self, numbers={name: (2, 6)})
        if self.status not in STATUSES:
            raise SpecError(
                _("status must be one of %(choices)s."), field="status", choices=", ".join(STATUSES)
            )
        if self.parry is not None and self.parry not in PARRY_MODES:
            raise SpecError(
                _("parry must be one of %(choices)s."),
                field="parry",
                choices=", ".join(PARRY_MODES),
            )
        if not isinstance(self.armour, tuple) or not isinstance(self.weapons, tuple):
            raise SpecError(_("armour and weapons are lists of slugs."), field="armour")
        _valid_items(self.items)
        for slug in self.armour:
            equipment_item(slug, kinds=(ARMOUR, SHIELD, HELMET), field="armour", items=self.items)
        for slug in self.weapons:
            equipment_item(slug, kinds=(MELEE, MISSILE, SHIELD), field="weapons", items=self.items)

    def _items(self) -> list[Equipment]:
        return [
            equipment_item(
                slug,
                kinds=(ARMOUR, SHIELD, HELMET, MELEE, MISSILE),
                field="armour",
                items=self.items,
            )
            for slug in (*self.armour, *self.weapons)
        ]

    @property
    def parry_mode(self) -> str:
        """Escudo pequeño or espada: one parry; both: the parry may be re-rolled once."""
        if self.parry is not None:
            return self.parry
        items = self._items()
        sword = any(item.parry and item.kind == MELEE for item in items)
        buckler = any(item.parry and item.kind == SHIELD for item in items)
        if sword and buckler:
            return "reroll"
        return "single" if sword or buckler else "none"

    @property
    def helmet_save(self) -> int | None:
        saves = [item.special_save_vs_stun for item in self._items() if item.special_save_vs_stun]
        return min(saves) if saves else None

    def armour_save(self, *, enemy_save_bonus: int = 0) -> int | None:
        """The save needed before the attack's modifiers (``None``: no save at all)."""
        items = self._items()
        body = [item.save for item in items if item.kind == ARMOUR and item.save is not None]
        target = min(body) if body else None
        for bonus in [item.save_bonus for item in items if item.save_bonus] + [enemy_save_bonus]:
            if bonus:
                target = 7 - bonus if target is None else target - bonus
        return target

    def to_dict(self) -> dict[str, Any]:
        return cast(
            dict[str, Any], jsonable({k: v for k, v in self.__dict__.items() if k != "items"})
        )


@dataclass(frozen=True)
class ShooterSpec:
    """A shooter: ``bs`` (HP), missile ``weapon`` slug, his own ``strength`` (throwing knives use
    it), ``shots`` this phase, ``distance_cm`` to the target, ``cover`` (the target is partly
    hidden), ``moved`` (the shooter moved this turn) and any other ``to_hit_modifier``.
    ``range_bonus_cm``: added to the weapon's range (eagle eyes); ``moves_and_fires``: a
    move-or-fire weapon may fire after moving (nimble); ``to_wound_modifier`` and
    ``critical_bonus`` as for :class:`AttackerSpec`; ``items``: his own catalogue items."""

    bs: int = 3
    weapon: str = "arco"
    strength: int = 3
    shots: int = 1
    distance_cm: float = 20
    cover: bool = False
    moved: bool = False
    to_hit_modifier: int = 0
    range_bonus_cm: int = 0
    moves_and_fires: bool = False
    to_wound_modifier: int = 0
    critical_bonus: int = 0
    items: tuple[Equipment, ...] = ()

    def __post_init__(self) -> None:
        spec_fields(
            self,
            numbers={
                "bs": CHARACTERISTIC,
                "strength": CHARACTERISTIC,
                "shots": (0, MAX_ATTACKS),
                "to_hit_modifier": TO_HIT_MODIFIER,
                "range_bonus_cm": (0, 100),
                "to_wound_modifier": TO_HIT_MODIFIER,
                "critical_bonus": (0, 5),
            },
            flags=("cover", "moved", "moves_and_fires"),
        )
        if isinstance(self.distance_cm, bool) or not isinstance(self.distance_cm, int | float):
            raise SpecError(_("distance_cm must be a number."), field="distance_cm")
        if self.distance_cm < 0:
            raise SpecError(_("distance_cm cannot be negative."), field="distance_cm")
        _valid_items(self.items)
        equipment_item(self.weapon, kinds=(MISSILE,), field="weapon", items=self.items)

    @property
    def missile(self) -> Equipment:
        return equipment_item(self.weapon, kinds=(MISSILE,), field="weapon", items=self.items)

    @property
    def range_cm(self) -> int | None:
        reach = self.missile.range_cm
        return None if reach is None else reach + self.range_bonus_cm

    def to_dict(self) -> dict[str, Any]:
        return cast(
            dict[str, Any], jsonable({k: v for k, v in self.__dict__.items() if k != "items"})
        )


def spec_from_dict(cls: type, data: Any) -> Any:
    """Build an :class:`AttackerSpec`, :class:`DefenderSpec`, :class:`ShooterSpec` or
    :class:`RuleOptions` from JSON data (lists become tuples; unknown keys are refused)."""
    if isinstance(data, cls):
        return data
    if not isinstance(data, dict):
        raise SpecError(
            _("Expected an object with the %(what)s fields."), field=cls.__name__, what=cls.__name__
        )
    known = {f.name for f in fields(cls)} - {"items"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise SpecError(_("%(name)s is not a field here."), field=unknown[0], name=unknown[0])
    values = {
        key: tuple(value) if isinstance(value, list) else value for key, value in data.items()
    }
    return cls(**values)
