"""The checks by the API's kind names: :data:`CHECKS`, :func:`check_parameters` and
:func:`run_check`, which validates a parameter dict and calls one."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from rules.engine.checks.falls import climb, diving_charge, edge_fall, falling, jump_down, jump_gap
from rules.engine.checks.leadership import attribute_check, leadership_test, rally_test, rout_test
from rules.engine.checks.movement import (
    charge,
    detect_unseen_enemy,
    run,
    spot_hidden,
    terrain_movement,
)
from rules.engine.checks.psychology import (
    all_alone_test,
    fear_test,
    flee_from_combat,
    frenzy,
    hatred,
    stupidity_test,
)
from rules.engine.checks.pursuit import flee_and_pursuit
from rules.engine.dice import Dice
from rules.engine.errors import RulesError, SpecError
from rules.engine.explain import jsonable
from rules.engine.i18n import gettext_noop as _

CHECKS: dict[str, Callable[..., Any]] = {
    "attribute": attribute_check,
    "leadership": leadership_test,
    "rally": rally_test,
    "rout": rout_test,
    "all-alone": all_alone_test,
    "fear": fear_test,
    "frenzy": frenzy,
    "hatred": hatred,
    "stupidity": stupidity_test,
    "falling": falling,
    "jump": jump_down,
    "diving-charge": diving_charge,
    "climb": climb,
    "gap": jump_gap,
    "spot": spot_hidden,
    "detect": detect_unseen_enemy,
    "terrain": terrain_movement,
    "run": run,
    "charge": charge,
    "edge": edge_fall,
    "flee-pursuit": flee_and_pursuit,
    "flee-combat": flee_from_combat,
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
