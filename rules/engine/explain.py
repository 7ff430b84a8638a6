"""Self-explaining results: :class:`Step` and the helper that collects steps and rolls.

Every result object of the engine has ``steps`` (a tuple of :class:`Step`) and ``rolls`` (the
:class:`~rules.engine.dice.Roll` objects it used), and a ``to_dict()`` returning JSON-able data.
A step's ``message`` is an untranslated English template with ``%(name)s`` placeholders; the
Django layer renders it with ``gettext(step.message) % step.params``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.engine.dice import Dice, Roll


@dataclass(frozen=True)
class Step:
    """One line of an explanation: a stable ``code``, a message template and its parameters."""

    code: str
    message: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)

    def render(self) -> str:
        """The English text (the web layer translates ``message`` before interpolating)."""
        return self.message % self.params if self.params else self.message

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "params": jsonable(self.params)}


class Explainer:
    """Collects the steps of one rule resolution and the rolls made on a :class:`Dice`."""

    __slots__ = ("dice", "_start", "steps")

    def __init__(self, dice: Dice | None = None) -> None:
        self.dice = dice
        self._start = len(dice.record) if dice is not None else 0
        self.steps: list[Step] = []

    def add(self, code: str, message: str, **params: Any) -> None:
        self.steps.append(Step(code, message, params))

    def rolls(self) -> tuple[Roll, ...]:
        if self.dice is None:
            return ()
        return tuple(self.dice.record[self._start :])


def jsonable(value: Any) -> Any:
    """Convert tuples, fractions, dataclass-like results and mappings to JSON-able values."""
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value) if isinstance(value, set | frozenset) else value
        return [jsonable(v) for v in items]
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return str(value)


def explained_dict(steps: tuple[Step, ...], rolls: tuple[Roll, ...]) -> dict[str, Any]:
    """The ``steps`` and ``rolls`` part shared by every result's ``to_dict()``."""
    return {
        "steps": [step.to_dict() for step in steps],
        "rolls": [roll.to_dict() for roll in rolls],
    }
