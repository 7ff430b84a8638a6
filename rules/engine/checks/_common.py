"""What every check shares: its result, the validators of its parameters and the two rolls
most checks make (a characteristic test on 1D6, a Leadership test on 2D6)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from rules.engine.dice import Dice
from rules.engine.errors import SpecError
from rules.engine.explain import Explainer, Step, explained_dict, jsonable
from rules.engine.i18n import gettext_noop as _

ATTRIBUTES = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")
WARRIOR_STATUSES = ("standing", "knocked_down", "stunned", "out_of_action", "fleeing", "hidden")
TERRAINS = ("open", "difficult", "very_difficult")


@dataclass(frozen=True)
class CheckResult:
    """Result of a check: ``passed`` (``None`` when no roll decided it), a machine ``outcome``,
    JSON-able ``details``, the ``steps`` explaining it and the ``rolls`` it used."""

    kind: str
    passed: bool | None
    outcome: str
    details: dict[str, Any] = field(default_factory=dict, hash=False)
    steps: tuple[Step, ...] = ()
    rolls: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "passed": self.passed,
            "outcome": self.outcome,
            "details": jsonable(self.details),
            **explained_dict(self.steps, self.rolls),
        }


def check_result(
    kind: str, ex: Explainer, passed: bool | None, outcome: str, **details: Any
) -> CheckResult:
    return CheckResult(kind, passed, outcome, details, tuple(ex.steps), ex.rolls())


MAX_DISTANCE_CM = 10_000  # a table is a couple of metres; anything past this is a typo


def valid_distance(name: str, value: Any) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not 0 <= value <= MAX_DISTANCE_CM
    ):
        raise SpecError(
            _("%(field)s must be a distance in cm, from 0 to %(max)d."),
            field=name,
            max=MAX_DISTANCE_CM,
        )
    return value


def valid_status(name: str, value: Any) -> str:
    if value not in WARRIOR_STATUSES:
        raise SpecError(
            _("%(field)s must be one of %(choices)s."),
            field=name,
            choices=", ".join(WARRIOR_STATUSES),
        )
    return cast(str, value)


def valid_models(name: str, value: Any) -> list[Mapping[str, Any]]:
    if not isinstance(value, list | tuple):
        raise SpecError(_("%(field)s must be a list."), field=name)
    for item in value:
        if not isinstance(item, Mapping):
            raise SpecError(_("Each entry of %(field)s must be an object."), field=name)
        valid_status(name, item.get("status", "standing"))
        if "distance_cm" in item:
            valid_distance(name, item["distance_cm"])
    return list(value)


def as_number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def attribute_roll(ex: Explainer, dice: Dice, value: int, attribute: str, purpose: str) -> bool:
    roll = dice.roll("D6", purpose or f"{attribute} test")
    passed = value > 0 and roll.total != 6 and roll.total <= value
    if roll.total == 6:
        ex.add("attribute_check.six", _("Rolled a 6: the test always fails."), attribute=attribute)
    elif value == 0:
        ex.add(
            "attribute_check.zero",
            _("%(attribute)s 0: the test always fails."),
            attribute=attribute.upper(),
        )
    else:
        ex.add(
            "attribute_check.rolled",
            _("%(attribute)s test: rolled %(face)d against %(value)d: passed.")
            if passed
            else _("%(attribute)s test: rolled %(face)d against %(value)d: failed."),
            attribute=attribute.upper(),
            face=roll.total,
            value=value,
            passed=passed,
        )
    return passed


def leadership_roll(
    ex: Explainer, dice: Dice, leadership: int, purpose: str, *, reroll: bool = False
) -> bool:
    """2D6 ≤ L passes. ``reroll``: a failed roll is re-rolled once, both dice (a war horn, a
    pipe of Southfarthing weed; a roll is never re-rolled twice)."""
    roll = dice.roll("2D6", purpose)
    passed = roll.total <= leadership
    ex.add(
        "leadership_test.rolled",
        _("2D6 = %(total)d against L%(leadership)d: passed.")
        if passed
        else _("2D6 = %(total)d against L%(leadership)d: failed."),
        total=roll.total,
        leadership=leadership,
        passed=passed,
    )
    if passed or not reroll:
        return passed
    again = dice.reroll(roll)
    passed = again.total <= leadership
    ex.add(
        "leadership_test.rerolled",
        _("Re-rolled: 2D6 = %(total)d against L%(leadership)d: passed.")
        if passed
        else _("Re-rolled: 2D6 = %(total)d against L%(leadership)d: failed."),
        total=again.total,
        leadership=leadership,
        passed=passed,
    )
    return passed


def leadership_options(leadership_modifier: Any, reroll_failed: Any) -> None:
    """Validate the options every Leadership test takes: ``leadership_modifier`` (an enemy's
    talisman −1) and ``reroll_failed`` (a failed roll re-rolled once)."""
    if (
        isinstance(leadership_modifier, bool)
        or not isinstance(leadership_modifier, int)
        or not -5 <= leadership_modifier <= 5
    ):
        raise SpecError(
            _("%(field)s must be a whole number from %(low)d to %(high)d, not %(value)r."),
            field="leadership_modifier",
            low=-5,
            high=5,
            value=leadership_modifier,
        )
    if not isinstance(reroll_failed, bool):
        raise SpecError(_("%(field)s must be true or false."), field="reroll_failed")
