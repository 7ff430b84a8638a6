"""The checks, declared once: :data:`CHECKS` maps each kind's name to its declaration — the
function, its label, and whether the battle log takes it (and which parameters the table adds
there). The API's kinds (``/api/v1/rules/checks/``), the battle log's check kinds, their labels
on the pages and in the schema are all read from here. :func:`check_parameters` and
:func:`run_check` validate a parameter dict and call one.

Adding a check: write its function (keyword parameters, ``dice``, a :class:`CheckResult`) in its
module, declare it below, add its label's Spanish to the catalogue, test it. If the battle log
takes it, give ``table_params`` and teach :mod:`rules.engine.tracker.checks` when it is due.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.checks.falls import (
    climb,
    diving_charge,
    edge_fall,
    falling,
    jump_down,
    jump_gap,
)
from rules.engine.checks.leadership import (
    attribute_check,
    leadership_test,
    rally_test,
    rout_test,
)
from rules.engine.checks.movement import (
    charge,
    detect_unseen_enemy,
    run,
    spot_hidden,
    terrain_movement,
)
from rules.engine.checks.psychology import (
    all_alone_test,
    charged_while_fleeing,
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


@dataclass(frozen=True)
class Check:
    """A check: ``kind`` (its name in the API and the log), ``function``, ``label`` (msgid),
    ``battle``: taken in the battle log, with the parameters the table adds there
    (``table_params``; the log's state gives the rest)."""

    kind: str
    function: Callable[..., Any]
    label: str
    battle: bool = False
    table_params: tuple[str, ...] = ()


def _checks(*rows: Check) -> dict[str, Check]:
    return {row.kind: row for row in rows}


DECLARED: dict[str, Check] = _checks(
    Check("attribute", attribute_check, _("Characteristic test")),
    Check("leadership", leadership_test, _("Leadership test")),
    Check(
        "rally",
        rally_test,
        _("Rally"),
        battle=True,
        table_params=("nearby", "leader_distance_cm", "war_horn"),
    ),
    Check("rout", rout_test, _("Rout test"), battle=True, table_params=("talisman",)),
    Check(
        "all-alone",
        all_alone_test,
        _("All alone"),
        battle=True,
        table_params=("enemies", "friends", "war_horn"),
    ),
    Check(
        "fear",
        fear_test,
        _("Fear"),
        battle=True,
        table_params=("situation", "leader_distance_cm", "war_horn", "talisman"),
    ),
    Check("frenzy", frenzy, _("Frenzy")),
    Check("hatred", hatred, _("Hatred")),
    Check(
        "stupidity",
        stupidity_test,
        _("Stupidity"),
        battle=True,
        table_params=("in_combat", "movement_cm", "leader_distance_cm", "war_horn"),
    ),
    Check(
        "charged-while-fleeing",
        charged_while_fleeing,
        _("Charged while fleeing"),
        battle=True,
    ),
    Check("falling", falling, _("Falling")),
    Check("jump", jump_down, _("Jumping down")),
    Check("diving-charge", diving_charge, _("Diving charge")),
    Check("climb", climb, _("Climbing")),
    Check("gap", jump_gap, _("Jumping a gap")),
    Check("spot", spot_hidden, _("Spotting hidden warriors")),
    Check("detect", detect_unseen_enemy, _("Detecting an unseen enemy")),
    Check("terrain", terrain_movement, _("Moving through terrain")),
    Check("run", run, _("Running")),
    Check("charge", charge, _("Charge")),
    Check("edge", edge_fall, _("Near an edge")),
    Check("flee-pursuit", flee_and_pursuit, _("Flee and pursuit")),
    Check("flee-combat", flee_from_combat, _("Fleeing from combat")),
)
"""Every check, by its kind name."""

CHECKS: dict[str, Callable[..., Any]] = {kind: row.function for kind, row in DECLARED.items()}
"""API kind name → check function (keyword parameters plus ``dice``)."""
BATTLE_CHECKS: tuple[str, ...] = tuple(kind for kind, row in DECLARED.items() if row.battle)
"""The checks the battle log takes."""
LABELS: dict[str, str] = {kind: row.label for kind, row in DECLARED.items()}


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
