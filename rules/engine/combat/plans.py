"""The plan of a phase (:class:`PhasePlan`): to hit, wound profiles, parry and the
defender, worked out once and shared by the dice (:mod:`.resolve`) and the exact odds
(:mod:`rules.engine.odds`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.combat.specs import (
    AUTOMATIC,
    DEFAULT_RULES,
    SEVERITY,
    STANDING,
    AttackerSpec,
    DefenderSpec,
    RuleOptions,
    ShooterSpec,
)
from rules.engine.equipment import Equipment
from rules.engine.explain import Explainer, Step
from rules.engine.i18n import gettext_noop as _
from rules.engine.tables import (
    KNOCKED_DOWN,
    SHOOTING_TO_HIT,
    STUNNED,
    melee_to_hit_needed,
    strength_save_modifier,
    to_wound_needed,
)

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
    """How one hit wounds: F, D6 needed (``None``: cannot), criticals (and the bonus to their
    roll), save, concussion, the bonus to the injury rolls it causes."""

    strength: int
    needed: int | None
    criticals: bool
    save: int | None
    concussion: bool
    parryable: bool
    weapon: str
    critical_bonus: int = 0
    injury_bonus: int = 0


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
    special_save: int | None = None
    first_wound_save: int | None = None
    stun_to_knockdown: bool = False
    hard_to_kill: bool = False

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
    *,
    strength: int,
    weapon: Equipment,
    defender: DefenderSpec,
    rules: RuleOptions,
    to_wound_modifier: int = 0,
    critical_bonus: int = 0,
    injury_bonus: int = 0,
) -> WoundProfile:
    """A +1 to wound (black venom) makes a 5+ a 4+, never better than 2+; it cannot make
    possible a wound the table says is impossible ("–")."""
    needed = to_wound_needed(strength, defender.toughness) if strength > 0 else None
    if needed is not None and to_wound_modifier:
        needed = min(6, max(2, needed - to_wound_modifier))
    return WoundProfile(
        strength=strength,
        needed=needed,
        criticals=rules.critical_hits and needed is not None and needed < 6,
        save=_save_after_modifiers(defender, strength=strength, weapon=weapon, rules=rules),
        concussion=weapon.concussion,
        parryable=strength < 2 * defender.strength,
        weapon=weapon.slug,
        critical_bonus=critical_bonus,
        injury_bonus=injury_bonus,
    )


def _defences(defender: DefenderSpec) -> dict[str, Any]:
    """What the defender brings to every plan against him."""
    return {
        "special_save": defender.special_save,
        "first_wound_save": defender.first_wound_save,
        "stun_to_knockdown": defender.stun_to_knockdown,
        "hard_to_kill": defender.hard_to_kill,
    }


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
        reroll_misses=(attacker.reroll_misses or (attacker.hatred and attacker.first_round))
        and not automatic,
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
            strength=max(1, attacker.weapon_strength(item) + defender.strength_against),
            weapon=item,
            defender=defender,
            rules=rules,
            to_wound_modifier=attacker.to_wound_modifier,
            critical_bonus=attacker.critical_bonus,
            injury_bonus=attacker.injury_bonus,
        )
        groups.append((count, to_hit, profile))
        notes.add(
            "melee.weapon",
            _("%(count)d attack with %(weapon)s at F%(strength)d.")
            if count == 1
            else _("%(count)d attacks with %(weapon)s at F%(strength)d."),
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
        **_defences(defender),
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
        **_defences(target),
    }
    reason = ""
    if shooter.bs == 0:
        reason = "no_ballistic_skill"
        notes.add("shooting.no_bs", _("HP 0: this warrior cannot shoot."))
    elif shooter.range_cm is not None and shooter.distance_cm > shooter.range_cm:
        reason = "out_of_range"
        notes.add(
            "shooting.out_of_range",
            _("%(distance)s cm is beyond the %(range)d cm of the %(weapon)s: the shot is lost."),
            distance=shooter.distance_cm,
            range=shooter.range_cm,
            weapon=missile.slug,
        )
    elif missile.move_or_fire and shooter.moved and not shooter.moves_and_fires:
        reason = "moved"
        notes.add(
            "shooting.move_or_fire",
            _("The %(weapon)s cannot fire after moving."),
            weapon=missile.slug,
        )
    if reason:
        return PhasePlan(groups=(), reason=reason, notes=tuple(notes.steps), **base)
    modifier = _shooting_modifier(shooter, target, notes)
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
    profile = _wound_profile(
        strength=strength,
        weapon=missile,
        defender=target,
        rules=rules,
        to_wound_modifier=shooter.to_wound_modifier,
        critical_bonus=shooter.critical_bonus,
    )
    groups = ((shooter.shots, to_hit, profile),) if shooter.shots else ()
    return PhasePlan(groups=groups, notes=tuple(notes.steps), **base)


def _shooting_modifier(shooter: ShooterSpec, target: DefenderSpec, notes: Explainer) -> int:
    """Modificadores al disparo: cover, long range, moving, a large target, and what the target
    carries (an elven cloak)."""
    missile = shooter.missile
    modifier = shooter.to_hit_modifier
    if shooter.cover:
        modifier -= 1
        notes.add("shooting.cover", _("Target in cover: -1 to hit."))
    if not missile.no_range_or_move_penalties:
        if shooter.range_cm is not None and shooter.distance_cm * 2 > shooter.range_cm:
            modifier -= 1
            notes.add("shooting.long_range", _("Long range: -1 to hit."))
        if shooter.moved:
            modifier -= 1
            notes.add("shooting.moved", _("Moved and fired: -1 to hit."))
    if target.large:
        modifier += 1
        notes.add("shooting.large", _("Large target: +1 to hit."))
    if target.missile_hit_modifier:
        modifier += target.missile_hit_modifier
        notes.add(
            "shooting.target_modifier",
            _("The target is harder to hit: %(modifier)+d to hit."),
            modifier=target.missile_hit_modifier,
        )
    return modifier


def automatic_hits_plan(
    attackers: Sequence[AttackerSpec], defender: DefenderSpec, rules: RuleOptions = DEFAULT_RULES
) -> PhasePlan:
    """One automatic hit from each attacker (fleeing from combat, failing "all alone")."""
    groups = []
    for attacker in attackers:
        item = attacker.main_weapon
        profile = _wound_profile(
            strength=max(1, attacker.weapon_strength(item) + defender.strength_against),
            weapon=item,
            defender=defender,
            rules=rules,
            to_wound_modifier=attacker.to_wound_modifier,
            critical_bonus=attacker.critical_bonus,
            injury_bonus=attacker.injury_bonus,
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
        **_defences(defender),
    )
