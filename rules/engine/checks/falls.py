"""Heights and falls (Reglas › Movimiento): falling, jumping down, diving charges, climbing,
gaps and roof edges. A fall is resolved with the combat engine's wound model."""

from __future__ import annotations

import math
from typing import Any

from rules.engine.checks._common import (
    CheckResult,
    as_number,
    attribute_roll,
    check_result,
    valid_distance,
)
from rules.engine.combat import (
    PhasePlan,
    PhaseResult,
    ToHit,
    WoundProfile,
    resolve_plan,
)
from rules.engine.dice import Dice
from rules.engine.errors import SpecError
from rules.engine.explain import Explainer
from rules.engine.i18n import gettext_noop as _
from rules.engine.tables import to_wound_needed
from rules.engine.validation import whole_number

JUMP_STEP_CM = 5
MAX_JUMP_CM = 15
EDGE_RANGE_CM = 3
DIVING_CHARGE_REACH_CM = 5


def falling_strength(height_cm: float) -> int:
    """Caídas: F = the height fallen divided by 3, rounded up (10 cm → F4), at most 10."""
    return max(1, min(10, math.ceil(height_cm / 3)))


def _fall(ex: Explainer, dice: Dice, height_cm: float, toughness: int, wounds: int) -> PhaseResult:
    strength = falling_strength(height_cm)
    hits = dice.roll("D3", "falling hits").total
    ex.add(
        "falling.hits",
        _("A fall of %(height)s cm: %(hits)d hits at F%(strength)d, no armour save, no criticals."),
        height=as_number(height_cm),
        hits=hits,
        strength=strength,
    )
    profile = WoundProfile(
        strength=strength,
        needed=to_wound_needed(strength, toughness),
        criticals=False,
        save=None,
        concussion=False,
        parryable=False,
        weapon="falling",
    )
    plan = PhasePlan(
        kind="falling",
        groups=((hits, ToHit(needed=None, automatic=True), profile),),
        parry="none",
        wounds=wounds,
        knocked_down_mode=False,
        auto_out_of_action=False,
        start_severity=0,
        helmet_save=None,
        one_critical=False,
    )
    result = resolve_plan(plan, dice=dice)
    ex.steps.extend(result.steps)
    return result


def falling(*, height_cm: float, toughness: int, dice: Dice, wounds: int = 1) -> CheckResult:
    """Caídas: D3 hits of F = height/3 rounded up; no armour saves, no critical hits; each hit
    rolls to wound against R, then injuries as usual. He cannot move or hide this turn."""
    valid_distance("height_cm", height_cm)
    whole_number("toughness", toughness, 1, 10)
    whole_number("wounds", wounds)
    ex = Explainer(dice)
    result = _fall(ex, dice, height_cm, toughness, wounds)
    return check_result(
        "falling",
        ex,
        None,
        result.outcome,
        strength=falling_strength(height_cm),
        hits=result.hits,
        wounds_lost=result.wounds_lost,
    )


def _fall_outcome(
    kind: str,
    ex: Explainer,
    dice: Dice,
    *,
    height_cm: float,
    toughness: int | None,
    wounds: int,
    **details: Any,
) -> CheckResult:
    details["fall_height_cm"] = as_number(height_cm)
    if toughness is not None:
        whole_number("toughness", toughness, 1, 10)
        result = _fall(ex, dice, height_cm, toughness, wounds)
        details["fall"] = {
            "outcome": result.outcome,
            "strength": falling_strength(height_cm),
            "hits": result.hits,
            "wounds_lost": result.wounds_lost,
        }
    return check_result(kind, ex, False, "falls", **details)


def _falls_from(
    kind: str,
    ex: Explainer,
    dice: Dice,
    height_cm: float | None,
    *,
    toughness: int | None,
    wounds: int,
) -> CheckResult:
    """He falls: with no height given the check just says so; with one, the fall is resolved."""
    if height_cm is None:
        return check_result(kind, ex, False, "falls")
    return _fall_outcome(kind, ex, dice, height_cm=height_cm, toughness=toughness, wounds=wounds)


def _jump_tests(
    kind: str,
    ex: Explainer,
    dice: Dice,
    initiative: int,
    height_cm: float,
    toughness: int | None,
    wounds: int,
    *,
    purpose: str,
) -> tuple[int, CheckResult | None]:
    """One Iniciativa test per full 5 cm jumped; the first failure is a fall from the height.
    Returns the number of tests and, when he fell, the result to answer with."""
    tests = int(height_cm // JUMP_STEP_CM)
    ex.add(
        "jump.tests",
        _("%(height)s cm: %(tests)d Iniciativa test.")
        if tests == 1
        else _("%(height)s cm: %(tests)d Iniciativa tests."),
        height=as_number(height_cm),
        tests=tests,
    )
    for _n in range(tests):
        if not attribute_roll(ex, dice, initiative, "i", purpose):
            fell = _fall_outcome(
                kind,
                ex,
                dice,
                height_cm=height_cm,
                toughness=toughness,
                wounds=wounds,
                tests=tests,
            )
            return tests, fell
    return tests, None


def jump_down(
    *,
    initiative: int,
    height_cm: float,
    dice: Dice,
    toughness: int | None = None,
    wounds: int = 1,
) -> CheckResult:
    """Bajar de un salto (at most 15 cm): one I test per full 5 cm jumped. A failure: he falls
    from where he jumped (resolved when ``toughness`` is given) and stops moving. The jump does
    not use up movement. Tests are rolled one at a time and stop at the first failure."""
    whole_number("initiative", initiative)
    valid_distance("height_cm", height_cm)
    ex = Explainer(dice)
    if height_cm > MAX_JUMP_CM:
        ex.add("jump.too_high", _("He may jump down at most %(max)d cm."), max=MAX_JUMP_CM)
        return check_result("jump", ex, None, "not_allowed")
    tests, fell = _jump_tests(
        "jump", ex, dice, initiative, height_cm, toughness, wounds, purpose="jump down"
    )
    if fell is not None:
        return fell
    return check_result("jump", ex, True, "lands", tests=tests)


def diving_charge(
    *,
    initiative: int,
    height_cm: float,
    enemy_distance_cm: float,
    dice: Dice,
    toughness: int | None = None,
    wounds: int = 1,
) -> CheckResult:
    """Cargar de un salto onto an enemy within 5 cm of where he lands: one I test per full 5 cm
    (at most 15 cm). Success: +1 F and +1 to hit in the next close-combat phase. A failure: he
    falls, cannot move further and cannot charge."""
    whole_number("initiative", initiative)
    valid_distance("height_cm", height_cm)
    valid_distance("enemy_distance_cm", enemy_distance_cm)
    ex = Explainer(dice)
    if height_cm > MAX_JUMP_CM or enemy_distance_cm > DIVING_CHARGE_REACH_CM:
        ex.add(
            "diving_charge.not_allowed",
            _(
                "A diving charge needs a drop of at most %(max)d cm "
                "and an enemy within %(reach)d cm."
            ),
            max=MAX_JUMP_CM,
            reach=DIVING_CHARGE_REACH_CM,
        )
        return check_result("diving-charge", ex, None, "not_allowed")
    tests, fell = _jump_tests(
        "diving-charge", ex, dice, initiative, height_cm, toughness, wounds, purpose="diving charge"
    )
    if fell is not None:
        return fell
    ex.add("diving_charge.bonus", _("Diving charge: +1 F and +1 to hit in the next combat phase."))
    return check_result(
        "diving-charge", ex, True, "charges", strength_bonus=1, to_hit_bonus=1, tests=tests
    )


def climb(
    *,
    initiative: int,
    height_cm: float,
    movement_cm: float,
    dice: Dice,
    direction: str = "up",
    toughness: int | None = None,
    wounds: int = 1,
) -> CheckResult:
    """Trepar: an I test; he cannot climb more than his M (and cannot run while climbing). Failed
    going up: he cannot move this turn. Failed going down: he falls from where he started."""
    whole_number("initiative", initiative)
    valid_distance("height_cm", height_cm)
    valid_distance("movement_cm", movement_cm)
    if direction not in ("up", "down"):
        raise SpecError(_("direction must be up or down."), field="direction")
    ex = Explainer(dice)
    if height_cm > movement_cm:
        ex.add(
            "climb.too_high",
            _("%(height)s cm is more than his M of %(movement)s cm: he cannot climb it."),
            height=as_number(height_cm),
            movement=as_number(movement_cm),
        )
        return check_result("climb", ex, None, "cannot_climb")
    if attribute_roll(ex, dice, initiative, "i", "climb"):
        return check_result("climb", ex, True, "climbs")
    if direction == "up":
        ex.add("climb.stuck", _("Failed going up: he cannot move this turn."))
        return check_result("climb", ex, False, "cannot_move")
    return _fall_outcome("climb", ex, dice, height_cm=height_cm, toughness=toughness, wounds=wounds)


def jump_gap(
    *,
    initiative: int,
    gap_cm: float,
    movement_left_cm: float,
    dice: Dice,
    fall_height_cm: float | None = None,
    toughness: int | None = None,
    wounds: int = 1,
) -> CheckResult:
    """Cruzar de un salto los huecos (at most 15 cm; the distance comes off his movement): not
    enough movement left → he falls automatically; otherwise an I test or he falls."""
    whole_number("initiative", initiative)
    valid_distance("gap_cm", gap_cm)
    valid_distance("movement_left_cm", movement_left_cm)
    ex = Explainer(dice)
    if gap_cm > MAX_JUMP_CM:
        ex.add("gap.too_wide", _("A gap wider than %(max)d cm cannot be jumped."), max=MAX_JUMP_CM)
        return check_result("gap", ex, None, "not_allowed")
    height = None if fall_height_cm is None else valid_distance("fall_height_cm", fall_height_cm)
    if movement_left_cm < gap_cm:
        ex.add(
            "gap.short",
            _("Only %(left)s cm of movement left for a %(gap)s cm gap: he falls."),
            left=as_number(movement_left_cm),
            gap=as_number(gap_cm),
        )
        return _falls_from("gap", ex, dice, height, toughness=toughness, wounds=wounds)
    if attribute_roll(ex, dice, initiative, "i", "jump gap"):
        return check_result(
            "gap", ex, True, "crosses", movement_left_cm=as_number(movement_left_cm - gap_cm)
        )
    return _falls_from("gap", ex, dice, height, toughness=toughness, wounds=wounds)


def edge_fall(
    *,
    initiative: int,
    distance_to_edge_cm: float,
    dice: Dice,
    fall_height_cm: float | None = None,
    toughness: int | None = None,
    wounds: int = 1,
) -> CheckResult:
    """Guerreros derribados o aturdidos within 3 cm of the edge of a roof: an I test or he slips
    and falls to the ground."""
    whole_number("initiative", initiative)
    valid_distance("distance_to_edge_cm", distance_to_edge_cm)
    ex = Explainer(dice)
    if distance_to_edge_cm > EDGE_RANGE_CM:
        ex.add(
            "edge.safe", _("More than %(range)d cm from the edge: no test."), range=EDGE_RANGE_CM
        )
        return check_result("edge", ex, None, "not_required")
    if attribute_roll(ex, dice, initiative, "i", "edge"):
        return check_result("edge", ex, True, "stays")
    height = None if fall_height_cm is None else valid_distance("fall_height_cm", fall_height_cm)
    return _falls_from("edge", ex, dice, height, toughness=toughness, wounds=wounds)
