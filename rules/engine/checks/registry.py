"""The checks by the API's kind names: :data:`CHECKS`, :func:`check_parameters` and
:func:`run_check`, which validates a parameter dict and calls one."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from rules.engine.checks import falls, leadership, movement, psychology, pursuit
from rules.engine.dice import Dice
from rules.engine.errors import RulesError, SpecError
from rules.engine.explain import jsonable
from rules.engine.i18n import gettext_noop as _

CHECKS: dict[str, Callable[..., Any]] = {
    "attribute": leadership.attribute_check,
    "leadership": leadership.leadership_test,
    "rally": leadership.rally_test,
    "rout": leadership.rout_test,
    "all-alone": psychology.all_alone_test,
    "fear": psychology.fear_test,
    "frenzy": psychology.frenzy,
    "hatred": psychology.hatred,
    "stupidity": psychology.stupidity_test,
    "falling": falls.falling,
    "jump": falls.jump_down,
    "diving-charge": falls.diving_charge,
    "climb": falls.climb,
    "gap": falls.jump_gap,
    "spot": movement.spot_hidden,
    "detect": movement.detect_unseen_enemy,
    "terrain": movement.terrain_movement,
    "run": movement.run,
    "charge": movement.charge,
    "edge": falls.edge_fall,
    "flee-pursuit": pursuit.flee_and_pursuit,
    "flee-combat": psychology.flee_from_combat,
}
"""API kind name → check function (keyword parameters plus ``dice``)."""


def check_parameters(kind: str) -> dict[str, dict[str, Any]]:
    """The parameters of a check: name → ``{"type": …, "required": bool, "default": …}``."""
    function = _check(kind)
    out: dict[str, dict[str, Any]] = {}
    for name, parameter in inspect.signature(function).parameters.items():
        if name == "dice":
            continue
        required = parameter.default is inspect.Parameter.empty
        out[name] = {
            "type": str(parameter.annotation),
            "required": required,
            "default": None if required else jsonable(parameter.default),
        }
    return out


def _check(kind: str) -> Callable[..., Any]:
    function = CHECKS.get(kind)
    if function is None:
        raise RulesError(
            _("%(kind)s is not a check; use one of %(choices)s."),
            code="check.unknown",
            kind=kind,
            choices=", ".join(CHECKS),
        )
    return function


def run_check(kind: str, params: Mapping[str, Any], *, dice: Dice) -> Any:
    """Call the check ``kind`` with ``params`` (unknown or missing parameters are refused)."""
    function = _check(kind)
    expected = check_parameters(kind)
    unknown = sorted(set(params) - set(expected))
    if unknown:
        raise SpecError(
            _("%(name)s is not a parameter of this check."), field=unknown[0], name=unknown[0]
        )
    missing = [name for name, spec in expected.items() if spec["required"] and name not in params]
    if missing:
        raise SpecError(_("%(name)s is required."), field=missing[0], name=missing[0])
    try:
        return function(**params, dice=dice)
    except (TypeError, AttributeError) as error:  # a list where a number was expected…
        raise SpecError(
            _("Bad parameter types: %(error)s."), field="params", error=str(error)
        ) from error
