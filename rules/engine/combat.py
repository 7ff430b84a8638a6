"""Shooting and close combat (Disparos, Combate cuerpo a cuerpo): specs, rolls, explanations.

The same :class:`PhasePlan` drives the dice (:func:`resolve_phase`, :func:`resolve_shooting`)
and the exact odds (:mod:`rules.engine.odds`), so both follow one model of a phase:

1. Roll to hit for every attack (hatred re-rolls misses once in the first round; a failed fear
   test means only 6s hit in the first round). Knocked-down defenders and defenders with HA 0 are
   hit automatically. Modifiers apply after re-rolls; an unmodified 1 misses when
   ``RuleOptions.natural_one_misses`` (default on).
2. Parry (Parada): one attempt per phase, against the highest to-hit result (the *modified*
   result, following seed 003's "result" convention; ties: the earliest attack). The parry D6
   must beat it, so a 6 is never parried; hits with Fuerza ≥ twice the parrier's base F cannot
   be parried (if the highest hit is such a hit, there is no parry). Sword + buckler re-rolls a
   failed parry once; two swords still parry once.
3. Roll to wound for each remaining hit, main-hand hits first. The first natural 6 (when a 6 was
   not needed) is a critical hit (one per warrior per close-combat phase; shooting has no such
   limit); its D6 picks vital (save, then 2 wounds), exposed (2 wounds, no save) or master strike
   (2 wounds, no save, +2 on their injury rolls).
4. Armour saves (a natural 1 always fails: the best possible save is 2+).
5. Each unsaved wound costs 1 H; the wound that takes H to 0 and every later one roll on the
   injury table; the highest result applies (then a helmet's 4+ turns stunned into knocked
   down). A knocked-down defender in close combat goes out of action on any unsaved wound; a
   stunned one is taken out of action by any attack.

All the attacks of one warrior in a phase are resolved together and only then is the worst
injury applied, so a warrior with several attacks cannot knock down or stun an enemy and then
take him out of action in the same phase (seed 000); a second attacker striking later in the
phase passes the new ``status`` in his :class:`DefenderSpec` and does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.dice import Dice
from rules.engine.equipment import ARMOUR, HELMET, MELEE, MISSILE, SHIELD, Equipment, equipment_item
from rules.engine.errors import SpecError
from rules.engine.explain import Explainer, Step, explained_dict, jsonable
from rules.engine.i18n import gettext_noop as _
from rules.engine.profile import MAX_CHARACTERISTIC
from rules.engine.tables import (
    CONCUSSION_INJURY_TABLE,
    CRITICAL_TABLE,
    INJURY_TABLE,
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    SHOOTING_TO_HIT,
    STUNNED,
    lookup,
    melee_to_hit_needed,
    strength_save_modifier,
    to_wound_needed,
)

STANDING = "standing"
STATUSES = (STANDING, KNOCKED_DOWN, STUNNED)
OUTCOMES = ("unharmed", "wounded", KNOCKED_DOWN, STUNNED, OUT_OF_ACTION)
SEVERITY = {STANDING: 0, KNOCKED_DOWN: 1, STUNNED: 2, OUT_OF_ACTION: 3}
SEVERITY_NAMES = {1: KNOCKED_DOWN, 2: STUNNED, 3: OUT_OF_ACTION}
PARRY_MODES = ("none", "single", "reroll")
AUTOMATIC = 7
"""Modified to-hit value given to automatic hits: above any parry roll."""
MAX_ATTACKS = 20


def _int_field(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SpecError(
            _("%(field)s must be a whole number from %(low)d to %(high)d, not %(value)r."),
            field=name,
            low=low,
            high=high,
            value=value,
        )
    return value


def _bool_field(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise SpecError(_("%(field)s must be true or false."), field=name)


@dataclass(frozen=True)
class RuleOptions:
    """Rule options a campaign may switch (defaults follow the reference)."""

    natural_one_misses: bool = True
    critical_hits: bool = True
    one_critical_per_phase: bool = True
    best_save: int = 2

    def __post_init__(self) -> None:
        for name in ("natural_one_misses", "critical_hits", "one_critical_per_phase"):
            _bool_field(name, getattr(self, name))
        _int_field("best_save", self.best_save, 1, 6)

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
        _int_field("ws", self.ws, 0, MAX_CHARACTERISTIC)
        _int_field("strength", self.strength, 0, MAX_CHARACTERISTIC)
        _int_field("attacks", self.attacks, 0, MAX_CHARACTERISTIC)
        _int_field("to_hit_modifier", self.to_hit_modifier, -5, 5)
        for name in ("first_round", "hatred", "frenzy", "diving_charge", "fear_failed"):
            _bool_field(name, getattr(self, name))
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
        _int_field("ws", self.ws, 0, MAX_CHARACTERISTIC)
        _int_field("toughness", self.toughness, 1, MAX_CHARACTERISTIC)
        _int_field("wounds", self.wounds, 0, MAX_CHARACTERISTIC)
        _int_field("strength", self.strength, 0, MAX_CHARACTERISTIC)
        _int_field("save_modifier", self.save_modifier, -6, 6)
        _bool_field("large", self.large)
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
        _int_field("bs", self.bs, 0, MAX_CHARACTERISTIC)
        _int_field("strength", self.strength, 0, MAX_CHARACTERISTIC)
        _int_field("shots", self.shots, 0, MAX_ATTACKS)
        _int_field("to_hit_modifier", self.to_hit_modifier, -5, 5)
        _bool_field("cover", self.cover)
        _bool_field("moved", self.moved)
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


# The plan shared by dice and odds ------------------------------------------------------------


@dataclass(frozen=True)
class ToHit:
    """How one attack hits: ``needed`` modified result (``None``: cannot hit), ``modifier``,
    ``automatic``, ``sixes_only`` (fear), ``reroll_misses`` (hatred), ``natural_one_misses``."""

    needed: int | None
    modifier: int = 0
    automatic: bool = False
    sixes_only: bool = False
    reroll_misses: bool = False
    natural_one_misses: bool = True

    def value(self, face: int) -> int | None:
        """The modified result of ``face`` if it hits, else ``None``."""
        if self.automatic:
            return AUTOMATIC
        if self.sixes_only:
            return face + self.modifier if face == 6 else None
        if self.needed is None or (face == 1 and self.natural_one_misses):
            return None
        result = face + self.modifier
        return result if result >= self.needed else None


@dataclass(frozen=True)
class WoundProfile:
    """How one hit wounds: F, D6 needed (``None``: cannot), criticals, save, concussion."""

    strength: int
    needed: int | None
    criticals: bool
    save: int | None
    concussion: bool
    parryable: bool
    weapon: str


@dataclass(frozen=True)
class PhasePlan:
    """Everything needed to roll or compute a phase: attack groups in order, parry, defender."""

    kind: str
    groups: tuple[tuple[int, ToHit, WoundProfile], ...]
    parry: str
    wounds: int
    knocked_down_mode: bool
    auto_out_of_action: bool
    start_severity: int
    helmet_save: int | None
    one_critical: bool
    reason: str = ""
    notes: tuple[Step, ...] = field(default=(), compare=False)

    @property
    def attacks(self) -> int:
        return sum(count for count, _th, _wp in self.groups)


def _save_after_modifiers(
    defender: DefenderSpec, *, strength: int, weapon: Equipment, rules: RuleOptions
) -> int | None:
    target = defender.armour_save(enemy_save_bonus=weapon.enemy_save_bonus)
    if target is None:
        return None
    target = (
        target - defender.save_modifier - strength_save_modifier(strength) + weapon.save_modifier
    )
    if target > 6:
        return None
    return max(target, rules.best_save)


def _wound_profile(
    *, strength: int, weapon: Equipment, defender: DefenderSpec, rules: RuleOptions
) -> WoundProfile:
    needed = to_wound_needed(strength, defender.toughness) if strength > 0 else None
    return WoundProfile(
        strength=strength,
        needed=needed,
        criticals=rules.critical_hits and needed is not None and needed < 6,
        save=_save_after_modifiers(defender, strength=strength, weapon=weapon, rules=rules),
        concussion=weapon.concussion,
        parryable=strength < 2 * defender.strength,
        weapon=weapon.slug,
    )


def melee_plan(
    attacker: AttackerSpec, defender: DefenderSpec, rules: RuleOptions = DEFAULT_RULES
) -> PhasePlan:
    """The plan of one close-combat phase of ``attacker`` against ``defender``."""
    notes = Explainer()
    automatic = defender.status == KNOCKED_DOWN or defender.ws == 0
    needed = melee_to_hit_needed(attacker.ws, defender.ws)
    to_hit = ToHit(
        needed=needed,
        modifier=attacker.to_hit_modifier + (1 if attacker.diving_charge else 0),
        automatic=automatic,
        sixes_only=attacker.fear_failed and attacker.first_round and not automatic,
        reroll_misses=attacker.hatred and attacker.first_round and not automatic,
        natural_one_misses=rules.natural_one_misses,
    )
    if automatic:
        notes.add("melee.automatic_hits", _("Every attack hits automatically."))
    elif to_hit.sixes_only:
        notes.add("melee.fear", _("Failed fear test: only 6s hit in the first round."))
    else:
        notes.add(
            "melee.to_hit",
            _("HA %(attacker_ws)d against HA %(defender_ws)d: %(needed)d+ to hit."),
            attacker_ws=attacker.ws,
            defender_ws=defender.ws,
            needed=needed,
        )
    groups = []
    total = attacker.total_attacks
    off = attacker.offhand_weapon
    main_count = total - 1 if off is not None and total > 0 else total
    for count, item in ((main_count, attacker.main_weapon), (total - main_count, off)):
        if item is None or count == 0:
            continue
        profile = _wound_profile(
            strength=attacker.weapon_strength(item), weapon=item, defender=defender, rules=rules
        )
        groups.append((count, to_hit, profile))
        notes.add(
            "melee.weapon",
            _("%(count)d attack(s) with %(weapon)s at F%(strength)d."),
            count=count,
            weapon=item.slug,
            strength=profile.strength,
        )
    parry = defender.parry_mode if defender.status == STANDING and not automatic else "none"
    return PhasePlan(
        kind="melee",
        groups=tuple(groups),
        parry=parry,
        wounds=defender.wounds,
        knocked_down_mode=defender.status == KNOCKED_DOWN,
        auto_out_of_action=defender.status == STUNNED,
        start_severity=SEVERITY[defender.status],
        helmet_save=defender.helmet_save,
        one_critical=rules.one_critical_per_phase,
        notes=tuple(notes.steps),
    )


def shooting_plan(
    shooter: ShooterSpec, target: DefenderSpec, rules: RuleOptions = DEFAULT_RULES
) -> PhasePlan:
    """The plan of one shooting phase: range, modifiers, and the same wound model as melee."""
    notes = Explainer()
    missile = shooter.missile
    base: dict[str, Any] = {
        "kind": "shooting",
        "parry": "none",
        "wounds": target.wounds,
        "knocked_down_mode": False,
        "auto_out_of_action": False,
        "start_severity": SEVERITY[target.status],
        "helmet_save": target.helmet_save,
        "one_critical": False,
    }
    reason = ""
    if shooter.bs == 0:
        reason = "no_ballistic_skill"
        notes.add("shooting.no_bs", _("HP 0: this warrior cannot shoot."))
    elif missile.range_cm is not None and shooter.distance_cm > missile.range_cm:
        reason = "out_of_range"
        notes.add(
            "shooting.out_of_range",
            _("%(distance)s cm is beyond the %(range)d cm of the %(weapon)s: the shot is lost."),
            distance=shooter.distance_cm,
            range=missile.range_cm,
            weapon=missile.slug,
        )
    elif missile.move_or_fire and shooter.moved:
        reason = "moved"
        notes.add(
            "shooting.move_or_fire",
            _("The %(weapon)s cannot fire after moving."),
            weapon=missile.slug,
        )
    if reason:
        return PhasePlan(groups=(), reason=reason, notes=tuple(notes.steps), **base)
    modifier = shooter.to_hit_modifier
    if shooter.cover:
        modifier -= 1
        notes.add("shooting.cover", _("Target in cover: -1 to hit."))
    if not missile.no_range_or_move_penalties:
        if missile.range_cm is not None and shooter.distance_cm * 2 > missile.range_cm:
            modifier -= 1
            notes.add("shooting.long_range", _("Long range: -1 to hit."))
        if shooter.moved:
            modifier -= 1
            notes.add("shooting.moved", _("Moved and fired: -1 to hit."))
    if target.large:
        modifier += 1
        notes.add("shooting.large", _("Large target: +1 to hit."))
    needed = SHOOTING_TO_HIT[shooter.bs]
    if needed - modifier > 6:
        notes.add(
            "shooting.cannot_hit",
            _("HP %(bs)d with %(modifier)+d would need more than 6: the shot cannot hit."),
            bs=shooter.bs,
            modifier=modifier,
        )
        to_hit = ToHit(needed=None)
    else:
        to_hit = ToHit(
            needed=needed, modifier=modifier, natural_one_misses=rules.natural_one_misses
        )
        notes.add(
            "shooting.to_hit",
            _("HP %(bs)d with %(modifier)+d: a D6 of %(face)d+ hits."),
            bs=shooter.bs,
            modifier=modifier,
            face=max(needed - modifier, 2 if rules.natural_one_misses else 1),
        )
    strength = shooter.strength if missile.uses_user_strength else (missile.strength or 0)
    profile = _wound_profile(strength=strength, weapon=missile, defender=target, rules=rules)
    groups = ((shooter.shots, to_hit, profile),) if shooter.shots else ()
    return PhasePlan(groups=groups, notes=tuple(notes.steps), **base)


def automatic_hits_plan(
    attackers: Sequence[AttackerSpec], defender: DefenderSpec, rules: RuleOptions = DEFAULT_RULES
) -> PhasePlan:
    """One automatic hit from each attacker (fleeing from combat, failing "all alone")."""
    groups = []
    for attacker in attackers:
        item = attacker.main_weapon
        profile = _wound_profile(
            strength=attacker.weapon_strength(item), weapon=item, defender=defender, rules=rules
        )
        groups.append((1, ToHit(needed=None, automatic=True), profile))
    return PhasePlan(
        kind="automatic_hits",
        groups=tuple(groups),
        parry="none",
        wounds=defender.wounds,
        knocked_down_mode=False,
        auto_out_of_action=False,
        start_severity=SEVERITY[defender.status],
        helmet_save=defender.helmet_save,
        one_critical=False,
    )


# Resolving with dice ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PhaseResult:
    """What happened in one phase: counts, the defender's ``outcome`` and the explanation."""

    kind: str
    outcome: str
    attacks: int
    hits: int
    parried: bool
    wounding_hits: int
    wounds_lost: int
    criticals: tuple[str, ...]
    injuries: tuple[str, ...]
    steps: tuple[Step, ...]
    rolls: tuple[Any, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "outcome": self.outcome,
            "attacks": self.attacks,
            "hits": self.hits,
            "parried": self.parried,
            "wounding_hits": self.wounding_hits,
            "wounds_lost": self.wounds_lost,
            "criticals": list(self.criticals),
            "injuries": list(self.injuries),
            **explained_dict(self.steps, self.rolls),
        }


def injury_result(value: int, *, concussion: bool) -> str:
    """Injury table (Heridas): 1-2 derribado, 3-4 aturdido, 5-6 fuera de combate; a concussion
    weapon (maza, martillo) makes 2-4 stunned. Values above 6 (master strike) are out of action."""
    return lookup(CONCUSSION_INJURY_TABLE if concussion else INJURY_TABLE, value, table="injury")[
        "result"
    ]


def resolve_plan(plan: PhasePlan, *, dice: Dice) -> PhaseResult:
    """Roll one phase following ``plan`` (see the module docstring for the order)."""
    ex = Explainer(dice)
    for note in plan.notes:
        ex.steps.append(note)
    attacks = plan.attacks
    if attacks and plan.auto_out_of_action:
        ex.add("melee.stunned", _("The stunned warrior is at his enemy's mercy: out of action."))
        return _phase_result(plan, ex, OUT_OF_ACTION, hits=attacks)
    # 1. To hit.
    hits: list[tuple[int, WoundProfile]] = []
    for count, to_hit, profile in plan.groups:
        for _n in range(count):
            if to_hit.automatic:
                hits.append((AUTOMATIC, profile))
                continue
            if to_hit.needed is None and not to_hit.sixes_only:
                continue
            roll = dice.roll("D6", "to hit")
            value = to_hit.value(roll.total)
            if value is None and to_hit.reroll_misses:
                ex.add(
                    "melee.hatred", _("Hatred: the miss (%(face)d) is re-rolled."), face=roll.total
                )
                roll = dice.reroll(roll)
                value = to_hit.value(roll.total)
            if value is None:
                ex.add("to_hit.miss", _("To hit: %(face)d misses."), face=roll.total)
            else:
                ex.add("to_hit.hit", _("To hit: %(face)d hits."), face=roll.total)
                hits.append((value, profile))
    hit_count = len(hits)
    # 2. Parry.
    parried = False
    if hits and plan.parry != "none":
        best = max(range(len(hits)), key=lambda index: (hits[index][0], -index))
        value, profile = hits[best]
        if value >= 6:
            ex.add(
                "parry.impossible",
                _("The highest hit is a %(value)d: it cannot be parried."),
                value=value,
            )
        elif not profile.parryable:
            ex.add(
                "parry.too_strong",
                _("F%(strength)d is too strong to parry."),
                strength=profile.strength,
            )
        else:
            roll = dice.roll("D6", "parry")
            if roll.total <= value and plan.parry == "reroll":
                ex.add(
                    "parry.reroll",
                    _("Sword and buckler: the failed parry (%(face)d) is re-rolled."),
                    face=roll.total,
                )
                roll = dice.reroll(roll)
            parried = roll.total > value
            if parried:
                ex.add(
                    "parry.success",
                    _("Parry: %(face)d beats the %(value)d to hit; that hit is ignored."),
                    face=roll.total,
                    value=value,
                )
                del hits[best]
            else:
                ex.add(
                    "parry.failure",
                    _("Parry: %(face)d does not beat the %(value)d to hit."),
                    face=roll.total,
                    value=value,
                )
    # 3-4. Wound, criticals, saves.
    criticals: list[str] = []
    wounding = 0
    lost = 0
    injury_rolls: list[tuple[int, bool]] = []
    wounds_left = plan.wounds
    out_of_action_now = False
    for _value, profile in hits:
        if profile.needed is None:
            ex.add(
                "to_wound.impossible",
                _("F%(strength)d cannot wound this target."),
                strength=profile.strength,
            )
            continue
        roll = dice.roll("D6", "to wound")
        if roll.total < profile.needed:
            ex.add(
                "to_wound.failure",
                _("To wound: %(face)d, %(needed)d+ needed."),
                face=roll.total,
                needed=profile.needed,
            )
            continue
        wounding += 1
        critical = profile.criticals and roll.total == 6 and not (plan.one_critical and criticals)
        wounds, bonus, saveable = 1, 0, True
        if critical:
            crit_roll = dice.roll("D6", "critical hit")
            row = lookup(CRITICAL_TABLE, crit_roll.total, table="critical")
            wounds, bonus, saveable = row["wounds"], row["injury_bonus"], row["armour_save"]
            criticals.append(row["result"])
            ex.add(
                "critical." + row["result"],
                _("Critical hit (%(face)d): %(kind)s, %(wounds)d wounds."),
                face=crit_roll.total,
                kind=row["result"],
                wounds=wounds,
            )
        else:
            ex.add("to_wound.success", _("To wound: %(face)d wounds."), face=roll.total)
        if saveable and profile.save is not None:
            save = dice.roll("D6", "armour save")
            if save.total >= profile.save:
                ex.add(
                    "save.success",
                    _("Armour save: %(face)d, %(needed)d+ needed: saved."),
                    face=save.total,
                    needed=profile.save,
                )
                continue
            ex.add(
                "save.failure",
                _("Armour save: %(face)d, %(needed)d+ needed: failed."),
                face=save.total,
                needed=profile.save,
            )
        elif saveable:
            ex.add("save.none", _("No armour save."))
        for _w in range(wounds):
            lost += 1
            if wounds_left > 0:
                wounds_left -= 1
            if wounds_left == 0:
                if plan.knocked_down_mode:
                    out_of_action_now = True
                else:
                    injury_rolls.append((bonus, profile.concussion))
    # 5. Injuries.
    injuries: list[str] = []
    if out_of_action_now:
        ex.add(
            "melee.knocked_down", _("A knocked-down warrior who suffers a wound is out of action.")
        )
        return _phase_result(
            plan,
            ex,
            OUT_OF_ACTION,
            hits=hit_count,
            parried=parried,
            wounding=wounding,
            lost=lost,
            criticals=tuple(criticals),
        )
    worst = 0
    for bonus, concussion in injury_rolls:
        roll = dice.roll("D6", "injury")
        result = injury_result(roll.total + bonus, concussion=concussion)
        injuries.append(result)
        worst = max(worst, SEVERITY[result])
        ex.add(
            "injury.rolled",
            _("Injury roll %(face)d%(bonus)s: %(result)s."),
            face=roll.total,
            bonus=f"+{bonus}" if bonus else "",
            result=result,
        )
    if worst == SEVERITY[STUNNED] and plan.helmet_save is not None:
        roll = dice.roll("D6", "helmet")
        if roll.total >= plan.helmet_save:
            worst = SEVERITY[KNOCKED_DOWN]
            ex.add(
                "helmet.saved",
                _("Helmet: %(face)d, knocked down instead of stunned."),
                face=roll.total,
            )
        else:
            ex.add("helmet.failed", _("Helmet: %(face)d, still stunned."), face=roll.total)
    if injuries:
        outcome = SEVERITY_NAMES[max(worst, plan.start_severity)]
    else:
        outcome = "wounded" if lost else "unharmed"
    return _phase_result(
        plan,
        ex,
        outcome,
        hits=hit_count,
        parried=parried,
        wounding=wounding,
        lost=lost,
        criticals=tuple(criticals),
        injuries=tuple(injuries),
    )


def _phase_result(
    plan: PhasePlan,
    ex: Explainer,
    outcome: str,
    *,
    hits: int = 0,
    parried: bool = False,
    wounding: int = 0,
    lost: int = 0,
    criticals: tuple[str, ...] = (),
    injuries: tuple[str, ...] = (),
) -> PhaseResult:
    ex.add("phase.outcome", _("Outcome: %(outcome)s."), outcome=outcome)
    return PhaseResult(
        kind=plan.kind,
        outcome=outcome,
        attacks=plan.attacks,
        hits=hits,
        parried=parried,
        wounding_hits=wounding,
        wounds_lost=lost,
        criticals=criticals,
        injuries=injuries,
        steps=tuple(ex.steps),
        rolls=ex.rolls(),
    )


def resolve_phase(
    attacker: AttackerSpec,
    defender: DefenderSpec,
    *,
    dice: Dice,
    rules: RuleOptions = DEFAULT_RULES,
) -> PhaseResult:
    """Roll a whole close-combat phase of ``attacker`` against ``defender`` (Combate cuerpo a
    cuerpo): all his attacks, one parry, one critical, the highest injury."""
    return resolve_plan(melee_plan(attacker, defender, rules), dice=dice)


def resolve_attack(
    attacker: AttackerSpec,
    defender: DefenderSpec,
    *,
    dice: Dice,
    rules: RuleOptions = DEFAULT_RULES,
) -> PhaseResult:
    """Roll a single attack with the main weapon (the attacker's other attacks are ignored)."""
    single = AttackerSpec(**{**attacker.__dict__, "attacks": 1, "offhand": None, "frenzy": False})
    return resolve_phase(single, defender, dice=dice, rules=rules)


def resolve_shooting(
    shooter: ShooterSpec,
    target: DefenderSpec,
    *,
    dice: Dice,
    rules: RuleOptions = DEFAULT_RULES,
) -> PhaseResult:
    """Roll a shooting phase (Disparos): range, to hit with modifiers, wound, save, injury."""
    return resolve_plan(shooting_plan(shooter, target, rules), dice=dice)


def resolve_automatic_hits(
    attackers: Sequence[AttackerSpec],
    defender: DefenderSpec,
    *,
    dice: Dice,
    rules: RuleOptions = DEFAULT_RULES,
) -> PhaseResult:
    """Huir de un combate: each enemy strikes one automatic hit as the warrior turns to flee."""
    return resolve_plan(automatic_hits_plan(attackers, defender, rules), dice=dice)


# Strike order ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Combatant:
    """A warrior in a fight, for the strike order (Quién ataca antes)."""

    name: str
    initiative: int
    charged: bool = False
    stood_up: bool = False
    weapon: str | None = None
    first_round: bool = True

    def __post_init__(self) -> None:
        _int_field("initiative", self.initiative, 0, MAX_CHARACTERISTIC)
        if self.weapon is not None:
            equipment_item(self.weapon, kinds=(MELEE,), field="weapon")

    @property
    def tier(self) -> int:
        """0 strikes first (charged this turn, or lanza in the first round), 1 by I,
        2 always last (arma a dos manos), 3 stood up this turn (last whatever else)."""
        if self.stood_up:
            return 3
        item = (
            None
            if self.weapon is None
            else equipment_item(self.weapon, kinds=(MELEE,), field="weapon")
        )
        if item is not None and item.strikes_last:
            return 2
        if self.charged or (
            item is not None and item.strikes_first_first_round and self.first_round
        ):
            return 0
        return 1


@dataclass(frozen=True)
class StrikeOrderResult:
    order: tuple[str, ...]
    steps: tuple[Step, ...]
    rolls: tuple[Any, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"order": list(self.order), **explained_dict(self.steps, self.rolls)}


def strike_order(combatants: Sequence[Combatant], *, dice: Dice) -> StrikeOrderResult:
    """Who strikes first: chargers (and spears in the first round), then by Iniciativa, with a
    die roll-off for ties (tied dice are rolled again); two-handed weapons strike last, and a
    warrior who stood up this turn strikes after everyone."""
    ex = Explainer(dice)
    names = [c.name for c in combatants]
    if len(set(names)) != len(names):
        raise SpecError(_("Each combatant needs a different name."), field="name")
    groups: dict[tuple[int, int], list[Combatant]] = {}
    for combatant in combatants:
        groups.setdefault((combatant.tier, -combatant.initiative), []).append(combatant)
    order: list[str] = []
    for key in sorted(groups):
        tied = groups[key]
        if len(tied) > 1:
            tied = _roll_off(tied, dice, ex)
        order.extend(c.name for c in tied)
    ex.add("strike_order.result", _("Strike order: %(order)s."), order=", ".join(order))
    return StrikeOrderResult(tuple(order), tuple(ex.steps), ex.rolls())


def _roll_off(tied: list[Combatant], dice: Dice, ex: Explainer) -> list[Combatant]:
    rolls = {c.name: dice.roll("D6", f"strike order: {c.name}").total for c in tied}
    ex.add(
        "strike_order.roll_off",
        _("Equal Iniciativa: roll-off %(rolls)s."),
        rolls=", ".join(f"{name} {face}" for name, face in rolls.items()),
    )
    by_face: dict[int, list[Combatant]] = {}
    for combatant in tied:
        by_face.setdefault(rolls[combatant.name], []).append(combatant)
    ordered: list[Combatant] = []
    for face in sorted(by_face, reverse=True):
        same = by_face[face]
        ordered.extend(_roll_off(same, dice, ex) if len(same) > 1 else same)
    return ordered


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
