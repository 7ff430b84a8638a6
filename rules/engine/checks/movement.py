"""Movement (Reglas › Movimiento): running, charging, spotting hidden enemies and terrain."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.checks._common import (
    TERRAINS,
    CheckResult,
    as_number,
    attribute_roll,
    check_result,
    valid_distance,
    valid_models,
)
from rules.engine.dice import Dice
from rules.engine.errors import SpecError
from rules.engine.explain import Explainer
from rules.engine.i18n import gettext_noop as _
from rules.engine.validation import whole_number

RUN_BLOCK_RANGE_CM = 20
UNSEEN_CHARGE_RANGE_CM = 10


def run(
    *, movement_cm: float, enemies: Sequence[Mapping[str, Any]] = (), dice: Dice | None = None
) -> CheckResult:
    """Correr: double M, unless an enemy is within 20 cm (enemies stunned, knocked down, fleeing
    or hidden do not count). ``enemies``: ``{"distance_cm": …, "status": …}``."""
    valid_distance("movement_cm", movement_cm)
    ex = Explainer(dice)
    blocking = [
        e
        for e in valid_models("enemies", enemies)
        if e.get("status", "standing") not in ("stunned", "knocked_down", "fleeing", "hidden")
        and e.get("distance_cm", 0) <= RUN_BLOCK_RANGE_CM
    ]
    if blocking:
        nearest = min(e.get("distance_cm", 0) for e in blocking)
        ex.add(
            "run.blocked",
            _("An enemy %(distance)s cm away (within %(range)d cm): he cannot run."),
            distance=as_number(nearest),
            range=RUN_BLOCK_RANGE_CM,
        )
        return check_result("run", ex, None, "cannot_run", distance_cm=as_number(movement_cm))
    distance = as_number(movement_cm * 2)
    ex.add("run.allowed", _("He may run %(distance)s cm."), distance=distance)
    return check_result("run", ex, None, "may_run", distance_cm=distance)


def charge(
    *, movement_cm: float, distance_cm: float | None = None, dice: Dice | None = None
) -> CheckResult:
    """¡A la carga!: a charge covers double M; short of the target it is a failed charge (he moves
    his normal M towards the enemy and cannot shoot)."""
    valid_distance("movement_cm", movement_cm)
    ex = Explainer(dice)
    reach = as_number(movement_cm * 2)
    if distance_cm is None:
        ex.add("charge.range", _("Charge range: %(reach)s cm."), reach=reach)
        return check_result("charge", ex, None, "charge_range", charge_range_cm=reach)
    valid_distance("distance_cm", distance_cm)
    if distance_cm <= movement_cm * 2:
        ex.add(
            "charge.in_reach",
            _("%(distance)s cm is within the %(reach)s cm charge."),
            distance=as_number(distance_cm),
            reach=reach,
        )
        return check_result("charge", ex, True, "charges", charge_range_cm=reach)
    ex.add(
        "charge.failed",
        _("%(distance)s cm is beyond the %(reach)s cm charge: a failed charge."),
        distance=as_number(distance_cm),
        reach=reach,
    )
    return check_result(
        "charge", ex, False, "failed_charge", charge_range_cm=reach, moves_cm=as_number(movement_cm)
    )


def spot_hidden(*, initiative: int, distance_cm: float, dice: Dice | None = None) -> CheckResult:
    """Ocultarse: a warrior always spots hidden enemies within 3×I cm (I3 → 9 cm)."""
    whole_number("initiative", initiative)
    valid_distance("distance_cm", distance_cm)
    ex = Explainer(dice)
    reach = 3 * initiative
    spotted = distance_cm <= reach
    ex.add(
        "spot.result",
        _("I%(initiative)d spots hidden enemies within %(reach)d cm: %(distance)s cm, spotted.")
        if spotted
        else _(
            "I%(initiative)d spots hidden enemies within %(reach)d cm: %(distance)s cm, not seen."
        ),
        initiative=initiative,
        reach=reach,
        distance=as_number(distance_cm),
    )
    return check_result(
        "spot", ex, spotted, "spotted" if spotted else "not_spotted", range_cm=reach
    )


def detect_unseen_enemy(*, initiative: int, distance_cm: float, dice: Dice) -> CheckResult:
    """Charging an enemy he cannot see (not declared hidden) within 10 cm: an I test to detect
    him; failed → no charge this turn (he may still move, shoot and cast)."""
    valid_distance("distance_cm", distance_cm)
    ex = Explainer(dice)
    if distance_cm > UNSEEN_CHARGE_RANGE_CM:
        ex.add(
            "detect.too_far",
            _("An unseen enemy can only be charged within %(range)d cm."),
            range=UNSEEN_CHARGE_RANGE_CM,
        )
        return check_result("detect", ex, None, "cannot_charge")
    passed = attribute_roll(
        ex, dice, whole_number("initiative", initiative), "i", "detect unseen enemy"
    )
    return check_result("detect", ex, passed, "may_charge" if passed else "cannot_charge")


def terrain_movement(
    *, movement_cm: float, terrain: str = "open", dice: Dice | None = None
) -> CheckResult:
    """Terreno: open full M; difficult (terreno difícil) half M; very difficult (terreno muy
    difícil) a quarter of M rounded up (10 cm → 3 cm)."""
    valid_distance("movement_cm", movement_cm)
    if terrain not in TERRAINS:
        raise SpecError(
            _("terrain must be one of %(choices)s."), field="terrain", choices=", ".join(TERRAINS)
        )
    ex = Explainer(dice)
    if terrain == "difficult":
        distance = as_number(movement_cm / 2)
    elif terrain == "very_difficult":
        distance = math.ceil(movement_cm / 4)
    else:
        distance = as_number(movement_cm)
    ex.add(
        "terrain.movement",
        _("M %(movement)s cm in %(terrain)s terrain: %(distance)s cm."),
        movement=as_number(movement_cm),
        terrain=terrain,
        distance=distance,
    )
    return check_result("terrain", ex, None, terrain, distance_cm=distance)
