"""Psychology (Reglas › Liderazgo y psicología): all alone (Solo ante el peligro), fleeing
from combat, fear, frenzy, hatred and stupidity."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.checks._common import (
    CheckResult,
    as_number,
    check_result,
    leadership_options,
    leadership_roll,
    valid_distance,
    valid_models,
    valid_status,
)
from rules.engine.checks.leadership import (
    LEADER_RANGE_CM,
    leadership_roll_with_leader,
    modified_leadership,
)
from rules.engine.checks.pursuit import FLEE_DICE
from rules.engine.combat import (
    DEFAULT_RULES,
    AttackerSpec,
    DefenderSpec,
    PhaseResult,
    RuleOptions,
    resolve_automatic_hits,
    spec_from_dict,
)
from rules.engine.dice import Dice
from rules.engine.errors import SpecError
from rules.engine.explain import Explainer
from rules.engine.i18n import gettext_noop as _
from rules.engine.tables import OUT_OF_ACTION
from rules.engine.validation import whole_number

ALL_ALONE_RANGE_CM = 15


def all_alone_test(
    *,
    leadership: int,
    enemies: int,
    dice: Dice,
    friends: Sequence[Mapping[str, Any]] = (),
    attackers: Sequence[Any] | None = None,
    defender: Any | None = None,
    leadership_modifier: int = 0,
    reroll_failed: bool = False,
) -> CheckResult:
    """Solo ante el peligro: fighting two or more enemies with no friend within 15 cm (friends
    stunned, out of action or fleeing do not count), an L test at the end of the combat phase.
    On a failure he flees: each enemy gets an automatic hit (resolved here when ``attackers``
    and ``defender`` are given) and, if he survives, he runs 5D6 cm away."""
    whole_number("enemies", enemies, 0, 20)
    ex = Explainer(dice)
    near = [
        f
        for f in valid_models("friends", friends)
        if f.get("status", "standing") not in ("stunned", "out_of_action", "fleeing")
        and f.get("distance_cm", 0) <= ALL_ALONE_RANGE_CM
    ]
    if enemies < 2 or near:
        ex.add(
            "all_alone.not_required",
            _("Not alone: %(enemies)d enemies, %(friends)d friends within %(range)d cm."),
            enemies=enemies,
            friends=len(near),
            range=ALL_ALONE_RANGE_CM,
        )
        return check_result("all-alone", ex, None, "not_required")
    whole_number("leadership", leadership)
    leadership_options(leadership_modifier, reroll_failed)
    used = modified_leadership(ex, leadership, leadership_modifier)
    if leadership_roll(ex, dice, used, "all alone", reroll=reroll_failed):
        return check_result("all-alone", ex, True, "holds")
    ex.add(
        "all_alone.flees",
        _("He turns to flee: each of the %(enemies)d enemies gets an automatic hit."),
        enemies=enemies,
    )
    details: dict[str, Any] = {"automatic_hits": enemies}
    if attackers is not None and defender is not None:
        hits = flee_from_combat(attackers=attackers, defender=defender, dice=dice)
        ex.steps.extend(hits.steps)
        details["hits"] = _phase_summary(hits)
        if hits.outcome in (OUT_OF_ACTION,):
            return check_result("all-alone", ex, False, "out_of_action", **details)
    roll = dice.roll(FLEE_DICE, "flee")
    ex.add("all_alone.flee_distance", _("He flees %(distance)d cm."), distance=roll.total)
    return check_result("all-alone", ex, False, "flees", flee_cm=roll.total, **details)


def charged_while_fleeing(*, dice: Dice) -> CheckResult:
    """Cargado mientras huye: the charger moves into contact, but the fleeing warrior runs
    another 5D6 cm towards the nearest table edge before any blow is struck."""
    ex = Explainer(dice)
    roll = dice.roll(FLEE_DICE, "flee")
    ex.add(
        "flee.charged",
        _("Charged while fleeing: he runs another %(distance)d cm."),
        distance=roll.total,
    )
    return check_result("charged-while-fleeing", ex, None, "flees", flee_cm=roll.total)


def flee_from_combat(
    *,
    attackers: Sequence[Any],
    defender: Any,
    dice: Dice,
    rules: Any = None,
) -> PhaseResult:
    """Huir de un combate: every enemy in the fight strikes one automatic hit (resolved at once)."""
    specs = [spec_from_dict(AttackerSpec, a) for a in attackers]
    target = spec_from_dict(DefenderSpec, defender)
    options = DEFAULT_RULES if rules is None else spec_from_dict(RuleOptions, rules)
    return resolve_automatic_hits(specs, target, dice=dice, rules=options)


def _phase_summary(result: PhaseResult) -> dict[str, Any]:
    data = result.to_dict()
    return {k: v for k, v in data.items() if k not in ("steps", "rolls")}


def fear_test(
    *,
    leadership: int,
    dice: Dice,
    situation: str = "charged",
    causes_fear: bool = False,
    frenzied_in_charge_range: bool = False,
    leader_leadership: int | None = None,
    leader_distance_cm: float | None = None,
    leader_status: str = "standing",
    leader_range_cm: float = LEADER_RANGE_CM,
    leadership_modifier: int = 0,
    reroll_failed: bool = False,
) -> CheckResult:
    """Miedo: an L test when charged by a fear-causing enemy (``situation="charged"``: failed →
    only 6s hit in the first round) or wishing to charge one (``"charging"``: failed → cannot
    charge, stays put, a failed charge). Fear-causing models, and frenzied warriors within charge
    range, ignore fear."""
    if situation not in ("charged", "charging"):
        raise SpecError(_("situation must be charged or charging."), field="situation")
    ex = Explainer(dice)
    if causes_fear or frenzied_in_charge_range:
        ex.add("fear.immune", _("This warrior ignores fear."))
        return check_result("fear", ex, None, "immune")
    used, passed = leadership_roll_with_leader(
        ex,
        dice,
        "fear test",
        leadership=leadership,
        leader_leadership=leader_leadership,
        leader_distance_cm=leader_distance_cm,
        leader_status=leader_status,
        leader_range_cm=leader_range_cm,
        leadership_modifier=leadership_modifier,
        reroll_failed=reroll_failed,
    )
    if passed:
        return check_result("fear", ex, True, "passed", leadership_used=used)
    if situation == "charged":
        ex.add("fear.sixes_to_hit", _("Failed: he needs 6s to hit in the first round of combat."))
        return check_result("fear", ex, False, "hits_only_on_6", leadership_used=used)
    ex.add("fear.cannot_charge", _("Failed: he cannot charge and stays put (a failed charge)."))
    return check_result("fear", ex, False, "cannot_charge", leadership_used=used)


def frenzy(
    *,
    attacks: int,
    dice: Dice | None = None,
    second_weapon: bool = False,
    status: str = "standing",
    enemy_in_charge_range: bool = False,
) -> CheckResult:
    """Furia asesina: must charge any enemy in charge range, fights with double A (the +1 of a
    second weapon is added after doubling), is immune to psychology within charge range, and
    loses frenzy for the rest of the battle once knocked down or stunned."""
    whole_number("attacks", attacks)
    valid_status("status", status)
    ex = Explainer(dice)
    if status in ("knocked_down", "stunned"):
        ex.add("frenzy.lost", _("Knocked down or stunned: frenzy is lost for the battle."))
        total = attacks + (1 if second_weapon else 0)
        return check_result(
            "frenzy", ex, None, "lost", attacks=total, must_charge=False, immune=False
        )
    total = attacks * 2 + (1 if second_weapon else 0)
    ex.add(
        "frenzy.attacks",
        _("Frenzy: %(base)d attacks doubled%(extra)s = %(total)d."),
        base=attacks,
        extra=" +1" if second_weapon else "",
        total=total,
    )
    if enemy_in_charge_range:
        ex.add("frenzy.must_charge", _("An enemy is in charge range: he must charge."))
    return check_result(
        "frenzy",
        ex,
        None,
        "frenzied",
        attacks=total,
        must_charge=enemy_in_charge_range,
        immune=enemy_in_charge_range,
    )


def hatred(*, first_round: bool, dice: Dice | None = None) -> CheckResult:
    """Odio: re-roll missed to-hit rolls in the first round of each close combat (the re-roll is
    made by :func:`rules.engine.combat.resolve_phase` with ``AttackerSpec(hatred=True)``)."""
    ex = Explainer(dice)
    if first_round:
        ex.add("hatred.reroll", _("Hatred: misses are re-rolled in this first round."))
        return check_result("hatred", ex, None, "reroll_misses")
    ex.add("hatred.spent", _("After the first round, hatred gives no re-rolls."))
    return check_result("hatred", ex, None, "no_effect")


def stupidity_test(
    *,
    leadership: int,
    dice: Dice,
    in_combat: bool = False,
    movement_cm: float = 10,
    leader_leadership: int | None = None,
    leader_distance_cm: float | None = None,
    leader_status: str = "standing",
    leader_range_cm: float = LEADER_RANGE_CM,
    leadership_modifier: int = 0,
    reroll_failed: bool = False,
) -> CheckResult:
    """Estupidez: an L test at the start of the turn. Failed in combat: he does not attack this
    turn. Failed out of combat, D6: 1-3 he lurches half his M straight ahead (no charge, stops
    3 cm from enemies, no shooting); 4-6 he stands drooling."""
    valid_distance("movement_cm", movement_cm)
    ex = Explainer(dice)
    used, passed = leadership_roll_with_leader(
        ex,
        dice,
        "stupidity test",
        leadership=leadership,
        leader_leadership=leader_leadership,
        leader_distance_cm=leader_distance_cm,
        leader_status=leader_status,
        leader_range_cm=leader_range_cm,
        leadership_modifier=leadership_modifier,
        reroll_failed=reroll_failed,
    )
    if passed:
        return check_result("stupidity", ex, True, "acts_normally")
    if in_combat:
        ex.add("stupidity.no_attacks", _("Stupid in combat: he does not attack this turn."))
        return check_result("stupidity", ex, False, "does_not_attack")
    roll = dice.roll("D6", "stupidity")
    if roll.total <= 3:
        distance = as_number(movement_cm / 2)
        ex.add(
            "stupidity.lurches",
            _("%(face)d: he lurches %(distance)s cm straight ahead."),
            face=roll.total,
            distance=distance,
        )
        return check_result("stupidity", ex, False, "moves_forward", distance_cm=distance)
    ex.add("stupidity.drools", _("%(face)d: he stands drooling."), face=roll.total)
    return check_result("stupidity", ex, False, "drools")
