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
from rules.engine.checks import LABELS

# Codes that appear as parameter values inside step messages (the characteristics by their
# abbreviations in the reader's language: WS in English, HA in Spanish).
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
    "ws": pgettext_lazy("characteristic", "WS"),
    "bs": pgettext_lazy("characteristic", "BS"),
    "s": pgettext_lazy("characteristic", "S"),
    "t": pgettext_lazy("characteristic", "T"),
    "w": pgettext_lazy("characteristic", "W"),
    "i": pgettext_lazy("characteristic", "I"),
    "a": pgettext_lazy("characteristic", "A"),
    "ld": pgettext_lazy("characteristic", "Ld"),
}

OUTCOME_ORDER = ("unharmed", "wounded", "knocked_down", "stunned", "out_of_action")

# What each roll of the engine is for (``Roll.purpose``, English), in words. A purpose given by
# a caller (the dice API's ``purpose``) that is not here is shown as it was written.
ROLL_PURPOSES = {
    # In play.
    "to hit": gettext_lazy("to hit"),
    "to wound": gettext_lazy("to wound"),
    "critical hit": gettext_lazy("critical hit"),
    "armour save": gettext_lazy("armour save"),
    "parry": gettext_lazy("parry"),
    "helmet": gettext_lazy("helmet"),
    "injury": gettext_lazy("injury"),
    "falling hits": gettext_lazy("falling hits"),
    "flee": gettext_lazy("flee"),
    "pursuit": gettext_lazy("pursuit"),
    "hold back": gettext_lazy("holding back"),
    "leadership test": gettext_lazy("leadership test"),
    "rout test": gettext_lazy("rout test"),
    "rally test": gettext_lazy("rally test"),
    "fear test": gettext_lazy("fear test"),
    "stupidity test": gettext_lazy("stupidity test"),
    "stupidity": gettext_lazy("stupidity"),
    "all alone": gettext_lazy("all alone"),
    "jump": gettext_lazy("jump"),
    "jump down": gettext_lazy("jumping down"),
    "jump gap": gettext_lazy("jumping a gap"),
    "diving charge": gettext_lazy("diving charge"),
    "climb": gettext_lazy("climbing"),
    "edge": gettext_lazy("near an edge"),
    "strike order": gettext_lazy("strike order"),
    # After the battle.
    "henchman injury": gettext_lazy("henchman injury"),
    "serious injury": gettext_lazy("serious injury"),
    "multiple injuries": gettext_lazy("multiple injuries"),
    "deep wound": gettext_lazy("deep wound"),
    "captured sale value": gettext_lazy("captive's sale value"),
    "pit fight": gettext_lazy("pit fight"),
    "arm wound": gettext_lazy("arm wound"),
    "smashed leg": gettext_lazy("smashed leg"),
    "madness": gettext_lazy("madness"),
    "bitter enmity": gettext_lazy("bitter enmity"),
    "hero advance": gettext_lazy("hero advance"),
    "hero advance characteristic": gettext_lazy("hero advance: characteristic"),
    "henchman advance": gettext_lazy("henchman advance"),
    "exploration": gettext_lazy("exploration"),
    "rare items": gettext_lazy("rare items"),
}


def roll_purpose(purpose: str) -> str:
    """A die's purpose as the engine named it, in words: ``to hit``, ``rare items: Ulf``,
    ``strike order: Beren``, ``price of espada``, ``i test`` (a characteristic test)."""
    head, _sep, rest = purpose.partition(": ")
    if head in ROLL_PURPOSES:
        return f"{ROLL_PURPOSES[head]}: {rest}" if rest else str(ROLL_PURPOSES[head])
    if purpose.startswith("price of "):
        return gettext("price")
    characteristic, _sep, test = purpose.partition(" ")
    if test == "test" and characteristic in CODE_LABELS:
        return gettext("%(characteristic)s test") % {"characteristic": CODE_LABELS[characteristic]}
    return purpose


def check_names(kinds: str) -> str:
    """Check kinds as the engine lists them (``"stupidity, rally"``), each by its name in the
    active language (the registry's label); an unknown one as written."""
    return ", ".join(
        gettext(LABELS[kind]) if kind in LABELS else kind for kind in kinds.split(", ")
    )


def weapon_name(slug: str) -> str:
    """A weapon's catalogue name in the reader's language (``espada`` → Espada / Sword); the
    slug as written when the catalogue does not know it."""
    from warbands.models import Equipment  # the catalogue: read at the edge, not by the engine

    item = Equipment.objects.filter(slug=slug).first()
    return item.display_name if item is not None else slug


def code_label(key: str, value: Any) -> Any:
    """A parameter value as read: a machine code (an outcome, a characteristic) in words, a
    roll's purpose in words, the checks due by their names."""
    if key == "purpose" and isinstance(value, str):
        return roll_purpose(value)
    if key == "checks" and isinstance(value, str):
        return check_names(value)
    if key == "weapon" and isinstance(value, str) and value:
        return weapon_name(value)
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
