"""Rolling a phase with dice: :func:`resolve_plan` follows a :class:`~.plans.PhasePlan` step
by step (to hit, parry, wound, saves, injuries) and explains each roll."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from rules.engine.combat.plans import (
    PhasePlan,
    ToHit,
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
    """What happened in one phase: counts, the defender's ``outcome`` and the explanation.
    ``spent``: the defender's one-use protections this phase used (``lucky-charm``,
    ``stun-to-knockdown``)."""

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
    spent: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = {
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
        if self.spent:
            data["spent"] = list(self.spent)
        return data


LUCKY_CHARM = "lucky-charm"
STUN_TO_KNOCKDOWN = "stun-to-knockdown"


def injury_result(value: int, *, concussion: bool, hard_to_kill: bool = False) -> str:
    """Injury table (Heridas): 1-2 derribado, 3-4 aturdido, 5-6 fuera de combate; a concussion
    weapon (maza, martillo) makes 2-4 stunned. Values above 6 (master strike) are out of action.
    Hard to kill: a 5 stuns him; only a 6 or more takes him out of action."""
    if hard_to_kill and value == 5:
        return STUNNED
    row = lookup(CONCUSSION_INJURY_TABLE if concussion else INJURY_TABLE, value, table="injury")
    return cast(str, row["result"])


def resolve_plan(plan: PhasePlan, *, dice: Dice, critical_spent: bool = False) -> PhaseResult:
    """Roll one phase following ``plan`` (see :mod:`rules.engine.combat` for the order), the
    dice of each step together as at the table: every to-hit roll, then the re-rolls of the
    misses, the parry, every to-wound roll, the critical hit, the saves, the injuries.
    ``critical_spent``: the attacker already caused his critical hit this close-combat phase."""
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
    wounds = _roll_wounds(plan, ex, dice, hits, critical_spent)
    counts: dict[str, Any] = {
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
        return _phase_result(plan, ex, OUT_OF_ACTION, spent=tuple(wounds.spent), **counts)
    injuries, worst = _roll_injuries(plan, ex, dice, wounds.injury_rolls)
    if worst == SEVERITY[STUNNED] and plan.stun_to_knockdown:
        worst = SEVERITY[KNOCKED_DOWN]
        wounds.spent.append(STUN_TO_KNOCKDOWN)
        ex.add("injury.stun_to_knockdown", _("He shrugs the blow off: knocked down, not stunned."))
    if injuries:
        outcome = SEVERITY_NAMES[max(worst, plan.start_severity)]
    else:
        outcome = "wounded" if wounds.lost else "unharmed"
    return _phase_result(
        plan, ex, outcome, injuries=tuple(injuries), spent=tuple(wounds.spent), **counts
    )


def _roll_to_hit(plan: PhasePlan, ex: Explainer, dice: Dice) -> list[tuple[int, WoundProfile]]:
    """1. To hit: a die for every attack, in order; then the misses that may be re-rolled
    (hatred), together. Returns the modified result of each hit."""
    attacks: list[tuple[ToHit, WoundProfile]] = []
    for count, to_hit, profile in plan.groups:
        if to_hit.automatic or to_hit.needed is not None or to_hit.sixes_only:
            attacks += [(to_hit, profile)] * count
    rolled = [(to_hit, profile) for to_hit, profile in attacks if not to_hit.automatic]
    rolls = dice.roll_each(len(rolled), "to hit")
    values = [to_hit.value(roll.total) for (to_hit, _p), roll in zip(rolled, rolls, strict=True)]
    again = [i for i, value in enumerate(values) if value is None and rolled[i][0].reroll_misses]
    if again:
        ex.add(
            "melee.hatred",
            _("Hatred: the misses (%(faces)s) are re-rolled."),
            faces=", ".join(str(rolls[i].total) for i in again),
        )
        for index, roll in zip(again, dice.reroll_each([rolls[i] for i in again]), strict=True):
            rolls[index] = roll
            values[index] = rolled[index][0].value(roll.total)
    hits: list[tuple[int, WoundProfile]] = []
    faces = iter(zip(values, rolls, strict=True))
    for to_hit, profile in attacks:
        if to_hit.automatic:
            hits.append((AUTOMATIC, profile))
            continue
        value, roll = next(faces)
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
    spent: list[str] = field(default_factory=list)


@dataclass
class _Wound:
    """One hit that wounded: its profile, wounds, injury bonus, and whether a save applies."""

    profile: WoundProfile
    wounds: int = 1
    bonus: int = 0
    armour: bool = True


def _roll_wounds(
    plan: PhasePlan,
    ex: Explainer,
    dice: Dice,
    hits: list[tuple[int, WoundProfile]],
    critical_spent: bool,
) -> _Wounds:
    """3-4. A to-wound die for every hit, the critical hit, the saves; each unsaved wound costs
    1 H, and those at 0 H roll on the injury table (or, knocked down in close combat, put him out
    of action)."""
    result = _Wounds()
    wounding = _roll_to_wound(plan, ex, dice, hits, critical_spent, result)
    unsaved = _roll_saves(plan, ex, dice, wounding)
    if unsaved and plan.first_wound_save is not None:
        roll = dice.roll("D6", "lucky charm")
        result.spent.append(LUCKY_CHARM)
        if roll.total >= plan.first_wound_save:
            ex.add(
                "save.lucky_charm",
                _("Lucky charm: %(face)d, %(needed)d+ needed: the first wound is ignored."),
                face=roll.total,
                needed=plan.first_wound_save,
            )
            unsaved = unsaved[1:]
        else:
            ex.add(
                "save.lucky_charm_failed",
                _("Lucky charm: %(face)d, %(needed)d+ needed: it does not help."),
                face=roll.total,
                needed=plan.first_wound_save,
            )
    wounds_left = plan.wounds
    for wound in unsaved:
        for _w in range(wound.wounds):
            result.lost += 1
            if wounds_left > 0:
                wounds_left -= 1
            if wounds_left == 0:
                if plan.knocked_down_mode:
                    result.out_of_action = True
                else:
                    bonus = wound.bonus + wound.profile.injury_bonus
                    result.injury_rolls.append((bonus, wound.profile.concussion))
    return result


def _roll_to_wound(
    plan: PhasePlan,
    ex: Explainer,
    dice: Dice,
    hits: list[tuple[int, WoundProfile]],
    critical_spent: bool,
    result: _Wounds,
) -> list[_Wound]:
    """3. The to-wound dice of every hit that can wound; then the critical hit of the first
    natural 6 (when a 6 was not needed; one per warrior per close-combat phase)."""
    profiles = [profile for _value, profile in hits]
    for profile in profiles:
        if profile.needed is None:
            ex.add(
                "to_wound.impossible",
                _("F%(strength)d cannot wound this target."),
                strength=profile.strength,
            )
    able = [(profile, profile.needed) for profile in profiles if profile.needed is not None]
    rolls = dice.roll_each(len(able), "to wound")
    wounding: list[_Wound] = []
    critical_used = critical_spent and plan.one_critical
    critical_at: list[int] = []
    for (profile, needed), roll in zip(able, rolls, strict=True):
        if roll.total < needed:
            ex.add(
                "to_wound.failure",
                _("To wound: %(face)d, %(needed)d+ needed."),
                face=roll.total,
                needed=needed,
            )
            continue
        result.wounding += 1
        if profile.criticals and roll.total == 6 and not critical_used:
            critical_at.append(len(wounding))
            critical_used = plan.one_critical
        else:
            ex.add("to_wound.success", _("To wound: %(face)d wounds."), face=roll.total)
        wounding.append(_Wound(profile))
    crit_rolls = dice.roll_each(len(critical_at), "critical hit")
    for index, crit_roll in zip(critical_at, crit_rolls, strict=True):
        wound = wounding[index]
        face = min(6, crit_roll.total + wound.profile.critical_bonus)
        row = lookup(CRITICAL_TABLE, face, table="critical")
        wound.wounds, wound.bonus, wound.armour = (
            row["wounds"],
            row["injury_bonus"],
            row["armour_save"],
        )
        result.criticals.append(row["result"])
        ex.add(
            "critical." + row["result"],
            _("Critical hit (%(face)d): %(kind)s, %(wounds)d wounds."),
            face=face,
            kind=row["result"],
            wounds=wound.wounds,
        )
    return wounding


def _roll_saves(plan: PhasePlan, ex: Explainer, dice: Dice, wounding: list[_Wound]) -> list[_Wound]:
    """4. The armour saves of the wounds that allow one (a natural 1 always fails), then the
    special save (a rune, step aside, regeneration: no weapon modifies it) of those left."""
    saving = [(w, w.profile.save) for w in wounding if w.armour and w.profile.save is not None]
    for wound in wounding:
        if wound.armour and wound.profile.save is None:
            ex.add("save.none", _("No armour save."))
    saved: set[int] = set()
    for (wound, needed), save in zip(
        saving, dice.roll_each(len(saving), "armour save"), strict=True
    ):
        ok = save.total >= needed
        ex.add(
            "save.success" if ok else "save.failure",
            _("Armour save: %(face)d, %(needed)d+ needed: saved.")
            if ok
            else _("Armour save: %(face)d, %(needed)d+ needed: failed."),
            face=save.total,
            needed=needed,
        )
        if ok:
            saved.add(id(wound))
    left = [w for w in wounding if id(w) not in saved]
    if plan.special_save is None or not left:
        return left
    kept: list[_Wound] = []
    for wound, save in zip(left, dice.roll_each(len(left), "special save"), strict=True):
        ok = save.total >= plan.special_save
        ex.add(
            "save.special_success" if ok else "save.special_failure",
            _("Special save: %(face)d, %(needed)d+ needed: saved.")
            if ok
            else _("Special save: %(face)d, %(needed)d+ needed: failed."),
            face=save.total,
            needed=plan.special_save,
        )
        if not ok:
            kept.append(wound)
    return kept


def _roll_injuries(
    plan: PhasePlan, ex: Explainer, dice: Dice, injury_rolls: list[tuple[int, bool]]
) -> tuple[list[str], int]:
    """5. Injuries: one roll per wound due; the worst applies, and a helmet may turn stunned into
    knocked down. Returns the results and the worst severity."""
    injuries: list[str] = []
    worst = 0
    rolls = dice.roll_each(len(injury_rolls), "injury")
    for (bonus, concussion), roll in zip(injury_rolls, rolls, strict=True):
        result = injury_result(
            roll.total + bonus, concussion=concussion, hard_to_kill=plan.hard_to_kill
        )
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
    spent: tuple[str, ...] = (),
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
        spent=spent,
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
