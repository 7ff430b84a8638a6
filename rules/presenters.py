"""Turn engine results into what people read: translated steps, odds as exact + float.

The engine marks its message templates with ``gettext_noop`` (English msgids); here they are
translated into the active language and filled with their parameters. Parameter values that
are machine codes (outcomes, statuses, characteristics) are translated too.
"""

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from rules.engine import RulesError

# Codes that appear as parameter values inside step messages.
CODE_LABELS = {
    "unharmed": gettext_lazy("unharmed"),
    "wounded": gettext_lazy("wounded"),
    "knocked_down": gettext_lazy("knocked down (derribado)"),
    "stunned": gettext_lazy("stunned (aturdido)"),
    "out_of_action": gettext_lazy("out of action (fuera de combate)"),
    "standing": gettext_lazy("standing"),
    "fleeing": gettext_lazy("fleeing"),
    "hidden": gettext_lazy("hidden"),
    "passed": gettext_lazy("passed"),
    "failed": gettext_lazy("failed"),
    "m": pgettext_lazy("characteristic", "M"),
    "ws": pgettext_lazy("characteristic", "HA"),
    "bs": pgettext_lazy("characteristic", "HP"),
    "s": pgettext_lazy("characteristic", "F"),
    "t": pgettext_lazy("characteristic", "R"),
    "w": pgettext_lazy("characteristic", "H"),
    "i": pgettext_lazy("characteristic", "I"),
    "a": pgettext_lazy("characteristic", "A"),
    "ld": pgettext_lazy("characteristic", "L"),
}

OUTCOME_ORDER = ("unharmed", "wounded", "knocked_down", "stunned", "out_of_action")


def code_label(key: str, value: Any) -> Any:
    """A parameter value as read: a machine code (an outcome, a characteristic) in words."""
    if isinstance(value, str) and value in CODE_LABELS:
        return str(CODE_LABELS[value])
    return value


def translate_message(
    template: str, params: dict[str, Any], label: Callable[[str, Any], Any] = code_label
) -> str:
    """The engine's message in the active language, each parameter shown by ``label``."""
    text = gettext(template)
    if not params:
        return text
    try:
        return text % {key: label(key, value) for key, value in params.items()}
    except (KeyError, TypeError, ValueError):
        # A translation that lost a placeholder must never turn a page or an answer into a 500.
        return template % params


def present_steps(
    steps: list[dict[str, Any]], label: Callable[[str, Any], Any] = code_label
) -> list[dict[str, Any]]:
    return [
        {
            "code": step["code"],
            "message": translate_message(step["message"], step.get("params") or {}, label),
            "params": step.get("params") or {},
        }
        for step in steps
    ]


def present_result(result_dict: dict[str, Any]) -> dict[str, Any]:
    """An engine ``to_dict()`` with its steps (and nested results' steps) translated."""
    presented: dict[str, Any] = {}
    for key, value in result_dict.items():
        if key == "steps" and isinstance(value, list):
            presented[key] = present_steps(value)
        elif isinstance(value, dict) and "steps" in value:
            presented[key] = present_result(value)
        else:
            presented[key] = value
    return presented


def probability(value: Fraction | str | dict) -> dict[str, Any]:
    """``{"exact": "n/d", "value": float}`` from a Fraction or an engine fraction dict."""
    if isinstance(value, dict):
        value = Fraction(value["fraction"])
    elif isinstance(value, str):
        value = Fraction(value)
    exact = f"{value.numerator}/{value.denominator}"
    return {"exact": exact, "value": float(value)}


def present_odds(odds: dict[str, Any]) -> dict[str, Any]:
    outcomes = odds["outcomes"]
    return {
        "kind": odds["kind"],
        "attacks": odds["attacks"],
        "outcome": {name: probability(outcomes[name]) for name in OUTCOME_ORDER},
        "per_attack": {name: probability(value) for name, value in odds["per_attack"].items()},
        "expected_wounds": probability(odds["expected_wounds"]),
        "steps": present_steps(odds.get("steps", [])),
    }


def rules_error_to_validation(error: RulesError, prefix: str = "") -> ValidationError:
    """An engine error as a Django ValidationError naming the API field."""
    message = translate_message(error.template, error.params)
    field = getattr(error, "field", None)
    if field:
        name = f"{prefix}.{field}" if prefix and not field.startswith(prefix) else field
        return ValidationError({name: [message]})
    if prefix:
        return ValidationError({prefix: [message]})
    return ValidationError(message)
