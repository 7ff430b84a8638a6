"""Flee and pursuit (Huida y persecución) (the mass battle rule of fleeing units)."""

from __future__ import annotations

from rules.engine.checks._common import (
    CheckResult,
    check_result,
    leadership_roll,
    valid_distance,
)
from rules.engine.dice import Dice
from rules.engine.errors import SpecError
from rules.engine.explain import Explainer
from rules.engine.i18n import gettext_noop as _
from rules.engine.validation import whole_number

FLEE_DICE = "5D6"
FAST_FLEE_DICE = "8D6"
FAST_MOVER_CM = 15


def flee_dice(movement_cm: float) -> str:
    """5D6 cm for M up to 15 cm, otherwise 8D6 cm."""
    return FLEE_DICE if movement_cm <= FAST_MOVER_CM else FAST_FLEE_DICE


def flee_and_pursuit(
    *,
    fleeing_movement_cm: float,
    pursuer_movement_cm: float,
    dice: Dice,
    hold: bool = False,
    pursuer_leadership: int | None = None,
    defending_obstacle: bool = False,
) -> CheckResult:
    """Huida y persecución: pursuit is compulsory unless the pursuer passes an L test (``hold``)
    or defends an obstacle (then he chooses freely). Both roll 5D6 (8D6 above M 15 cm); a pursuit
    roll equal to or above the flee roll catches and destroys the fleeing troops."""
    valid_distance("fleeing_movement_cm", fleeing_movement_cm)
    valid_distance("pursuer_movement_cm", pursuer_movement_cm)
    ex = Explainer(dice)
    pursues = True
    if hold:
        if defending_obstacle:
            ex.add("pursuit.obstacle", _("Defending an obstacle: he may stay without a test."))
            pursues = False
        else:
            if pursuer_leadership is None:
                raise SpecError(
                    _("Holding back needs the pursuer's L."), field="pursuer_leadership"
                )
            whole_number("pursuer_leadership", pursuer_leadership)
            pursues = not leadership_roll(ex, dice, pursuer_leadership, "hold back")
            if pursues:
                ex.add("pursuit.compelled", _("The test failed: he must pursue."))
    flee = dice.roll(flee_dice(fleeing_movement_cm), "flee")
    ex.add("flee.distance", _("The fleeing troops run %(distance)d cm."), distance=flee.total)
    if not pursues:
        ex.add("pursuit.holds", _("No pursuit: they escape."))
        return check_result("flee-pursuit", ex, None, "escaped", flee_cm=flee.total, pursued=False)
    chase = dice.roll(flee_dice(pursuer_movement_cm), "pursuit")
    caught = chase.total >= flee.total
    ex.add(
        "pursuit.distance",
        _("Pursuit %(pursuit)d cm against flight %(flee)d cm: caught and destroyed.")
        if caught
        else _("Pursuit %(pursuit)d cm against flight %(flee)d cm: they escape."),
        pursuit=chase.total,
        flee=flee.total,
    )
    return check_result(
        "flee-pursuit",
        ex,
        None,
        "destroyed" if caught else "escaped",
        flee_cm=flee.total,
        pursuit_cm=chase.total,
        pursued=True,
    )
