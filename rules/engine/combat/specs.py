"""What a phase starts from: the attacker, defender and shooter specs, the campaign's rule
options, the defender's statuses, and :func:`spec_from_dict` to build them from JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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

    def __post_init__(self) -> None:
        spec_fields(
            self,
            numbers={
                "ws": CHARACTERISTIC,
                "strength": CHARACTERISTIC,
                "attacks": CHARACTERISTIC,
                "to_hit_modifier": TO_HIT_MODIFIER,
            },
            flags=("first_round", "hatred", "frenzy", "diving_charge", "fear_failed"),
        )
        main = self.main_weapon
        if self.offhand is not None:
            off = equipment_item(self.offhand, kinds=(MELEE,), field="offhand")
            if main.two_handed or off.two_handed:
                raise SpecError(
                    _("A two-handed weapon leaves no hand for a second weapon."), field="offhand"
                )
        if self.total_attacks > MAX_ATTACKS:
            raise SpecError(_("Too many attacks."), field="attacks")

    @property
    def main_weapon(self) -> Equipment:
        if self.weapon is None:
            return HAND_WEAPON
        return equipment_item(self.weapon, kinds=(MELEE,), field="weapon")

    @property
    def offhand_weapon(self) -> Equipment | None:
        return (
            None
            if self.offhand is None
            else equipment_item(self.offhand, kinds=(MELEE,), field="offhand")
        )

    @property
    def total_attacks(self) -> int:
        """A, doubled by frenzy (furia asesina), then +1 for a second weapon."""
        base = self.attacks * (2 if self.frenzy else 1)
        return base + (1 if self.offhand is not None and self.attacks > 0 else 0)

    def weapon_strength(self, item: Equipment) -> int:
        bonus = item.strength_bonus + (item.strength_bonus_first_round if self.first_round else 0)
        return min(MAX_CHARACTERISTIC, self.strength + bonus + (1 if self.diving_charge else 0))

    def to_dict(self) -> dict[str, Any]:
        return jsonable(self.__dict__)


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

    def __post_init__(self) -> None:
        spec_fields(
            self,
            numbers={
                "ws": CHARACTERISTIC,
                "toughness": (1, MAX_CHARACTERISTIC),
                "wounds": CHARACTERISTIC,
                "strength": CHARACTERISTIC,
                "save_modifier": (-6, 6),
            },
            flags=("large",),
        )
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
        for slug in self.armour:
            equipment_item(slug, kinds=(ARMOUR, SHIELD, HELMET), field="armour")
        for slug in self.weapons:
            equipment_item(slug, kinds=(MELEE, MISSILE, SHIELD), field="weapons")

    def _items(self) -> list[Equipment]:
        return [
            equipment_item(slug, kinds=(ARMOUR, SHIELD, HELMET, MELEE, MISSILE), field="armour")
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
        return jsonable(self.__dict__)


@dataclass(frozen=True)
class ShooterSpec:
    """A shooter: ``bs`` (HP), missile ``weapon`` slug, his own ``strength`` (throwing knives use
    it), ``shots`` this phase, ``distance_cm`` to the target, ``cover`` (the target is partly
    hidden), ``moved`` (the shooter moved this turn) and any other ``to_hit_modifier``."""

    bs: int = 3
    weapon: str = "arco"
    strength: int = 3
    shots: int = 1
    distance_cm: float = 20
    cover: bool = False
    moved: bool = False
    to_hit_modifier: int = 0

    def __post_init__(self) -> None:
        spec_fields(
            self,
            numbers={
                "bs": CHARACTERISTIC,
                "strength": CHARACTERISTIC,
                "shots": (0, MAX_ATTACKS),
                "to_hit_modifier": TO_HIT_MODIFIER,
            },
            flags=("cover", "moved"),
        )
        if isinstance(self.distance_cm, bool) or not isinstance(self.distance_cm, int | float):
            raise SpecError(_("distance_cm must be a number."), field="distance_cm")
        if self.distance_cm < 0:
            raise SpecError(_("distance_cm cannot be negative."), field="distance_cm")
        equipment_item(self.weapon, kinds=(MISSILE,), field="weapon")

    @property
    def missile(self) -> Equipment:
        return equipment_item(self.weapon, kinds=(MISSILE,), field="weapon")

    def to_dict(self) -> dict[str, Any]:
        return jsonable(self.__dict__)


def spec_from_dict(cls: type, data: Any) -> Any:
    """Build an :class:`AttackerSpec`, :class:`DefenderSpec`, :class:`ShooterSpec` or
    :class:`RuleOptions` from JSON data (lists become tuples; unknown keys are refused)."""
    if isinstance(data, cls):
        return data
    if not isinstance(data, dict):
        raise SpecError(
            _("Expected an object with the %(what)s fields."), field=cls.__name__, what=cls.__name__
        )
    known = set(cls.__dataclass_fields__)
    unknown = sorted(set(data) - known)
    if unknown:
        raise SpecError(_("%(name)s is not a field here."), field=unknown[0], name=unknown[0])
    values = {
        key: tuple(value) if isinstance(value, list) else value for key, value in data.items()
    }
    return cls(**values)
