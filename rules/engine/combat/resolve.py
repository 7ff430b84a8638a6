"""Rolling a phase with dice: :func:`resolve_plan` follows a :class:`~.plans.PhasePlan` step
by step (to hit, parry, wound, saves, injuries) and explains each roll."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.combat.plans import (
    PhasePlan,
    WoundProfile,
    automatic_hits_plan,
    melee_plan,
    shooting_plan,
)
from rules.engine.combat.specs import (
    AUTOMATIC,
    DEFAULT_RULES,
    SEVERITY,
    SEVERITY_NAMES,
    AttackerSpec,
    DefenderSpec,
    RuleOptions,
    ShooterSpec,
)
from rules.engine.dice import Dice
from rules.engine.explain import Explainer, Step, explained_dict
from rules.engine.i18n import gettext_noop as _
from rules.engine.tables import (
    CONCUSSION_INJURY_TABLE,
    CRITICAL_TABLE,
    INJURY_TABLE,
    KNOCKED_DOWN,
    OUT_OF_ACTION,
    STUNNED,
    lookup,
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
    """Roll one phase following ``plan`` (see :mod:`rules.engine.combat` for the order)."""
    ex = Explainer(dice)
    for note in plan.notes:
        ex.steps.append(note)
    attacks = plan.attacks
    if attacks and plan.auto_out_of_action:
        ex.add("melee.stunned", _("The stunned warrior is at his enemy's mercy: out of action."))
        return _phase_result(plan, ex, OUT_OF_ACTION, hits=attacks)
    hits = _roll_to_hit(plan, ex, dice)
    hit_count = len(hits)
    parried = _roll_parry(plan, ex, dice, hits)
    wounds = _roll_wounds(plan, ex, dice, hits)
    counts = {
        "hits": hit_count,
        "parried": parried,
        "wounding": wounds.wounding,
        "lost": wounds.lost,
        "criticals": tuple(wounds.criticals),
    }
    if wounds.out_of_action:
        ex.add(
            "melee.knocked_down", _("A knocked-down warrior who suffers a wound is out of action.")
        )
        return _phase_result(plan, ex, OUT_OF_ACTION, **counts)
    injuries, worst = _roll_injuries(plan, ex, dice, wounds.injury_rolls)
    if injuries:
        outcome = SEVERITY_NAMES[max(worst, plan.start_severity)]
    else:
        outcome = "wounded" if wounds.lost else "unharmed"
    return _phase_result(plan, ex, outcome, injuries=tuple(injuries), **counts)


def _roll_to_hit(plan: PhasePlan, ex: Explainer, dice: Dice) -> list[tuple[int, WoundProfile]]:
    """1. To hit: every attack of every group, in order; the modified result of each hit."""
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
    return hits


def _roll_parry(
    plan: PhasePlan, ex: Explainer, dice: Dice, hits: list[tuple[int, WoundProfile]]
) -> bool:
    """2. Parry: one attempt against the highest hit, which is removed from ``hits`` if parried."""
    if not hits or plan.parry == "none":
        return False
    best = max(range(len(hits)), key=lambda index: (hits[index][0], -index))
    value, profile = hits[best]
    if value >= 6:
        ex.add(
            "parry.impossible",
            _("The highest hit is a %(value)d: it cannot be parried."),
            value=value,
        )
        return False
    if not profile.parryable:
        ex.add(
            "parry.too_strong",
            _("F%(strength)d is too strong to parry."),
            strength=profile.strength,
        )
        return False
    roll = dice.roll("D6", "parry")
    if roll.total <= value and plan.parry == "reroll":
        ex.add(
            "parry.reroll",
            _("Sword and buckler: the failed parry (%(face)d) is re-rolled."),
            face=roll.total,
        )
        roll = dice.reroll(roll)
    if roll.total > value:
        ex.add(
            "parry.success",
            _("Parry: %(face)d beats the %(value)d to hit; that hit is ignored."),
            face=roll.total,
            value=value,
        )
        del hits[best]
        return True
    ex.add(
        "parry.failure",
        _("Parry: %(face)d does not beat the %(value)d to hit."),
        face=roll.total,
        value=value,
    )
    return False


@dataclass
class _Wounds:
    """What the hits did once wounded and saved: counts, criticals and the injury rolls due."""

    wounding: int = 0
    lost: int = 0
    criticals: list[str] = field(default_factory=list)
    injury_rolls: list[tuple[int, bool]] = field(default_factory=list)
    out_of_action: bool = False


def _roll_wounds(
    plan: PhasePlan, ex: Explainer, dice: Dice, hits: list[tuple[int, WoundProfile]]
) -> _Wounds:
    """3-4. Wound, criticals and saves for each hit; each unsaved wound costs 1 H, and those at
    0 H roll on the injury table (or, knocked down in close combat, put him out of action)."""
    result = _Wounds()
    wounds_left = plan.wounds
    for _value, profile in hits:
        unsaved = _wound_and_save(plan, ex, dice, profile, result)
        if unsaved is None:
            continue
        wounds, bonus = unsaved
        for _w in range(wounds):
            result.lost += 1
            if wounds_left > 0:
                wounds_left -= 1
            if wounds_left == 0:
                if plan.knocked_down_mode:
                    result.out_of_action = True
                else:
                    result.injury_rolls.append((bonus, profile.concussion))
    return result


def _wound_and_save(
    plan: PhasePlan, ex: Explainer, dice: Dice, profile: WoundProfile, result: _Wounds
) -> tuple[int, int] | None:
    """One hit: to wound, a critical on the first natural 6, the armour save. Returns the wounds
    it causes and their injury bonus, or ``None`` when it does not wound or is saved."""
    if profile.needed is None:
        ex.add(
            "to_wound.impossible",
            _("F%(strength)d cannot wound this target."),
            strength=profile.strength,
        )
        return None
    roll = dice.roll("D6", "to wound")
    if roll.total < profile.needed:
        ex.add(
            "to_wound.failure",
            _("To wound: %(face)d, %(needed)d+ needed."),
            face=roll.total,
            needed=profile.needed,
        )
        return None
    result.wounding += 1
    critical = (
        profile.criticals and roll.total == 6 and not (plan.one_critical and result.criticals)
    )
    wounds, bonus, saveable = 1, 0, True
    if critical:
        crit_roll = dice.roll("D6", "critical hit")
        row = lookup(CRITICAL_TABLE, crit_roll.total, table="critical")
        wounds, bonus, saveable = row["wounds"], row["injury_bonus"], row["armour_save"]
        result.criticals.append(row["result"])
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
        saved = save.total >= profile.save
        ex.add(
            "save.success" if saved else "save.failure",
            _("Armour save: %(face)d, %(needed)d+ needed: saved.")
            if saved
            else _("Armour save: %(face)d, %(needed)d+ needed: failed."),
            face=save.total,
            needed=profile.save,
        )
        if saved:
            return None
    elif saveable:
        ex.add("save.none", _("No armour save."))
    return wounds, bonus


def _roll_injuries(
    plan: PhasePlan, ex: Explainer, dice: Dice, injury_rolls: list[tuple[int, bool]]
) -> tuple[list[str], int]:
    """5. Injuries: one roll per wound due; the worst applies, and a helmet may turn stunned into
    knocked down. Returns the results and the worst severity."""
    injuries: list[str] = []
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
    return injuries, worst


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
