"""Exceptions raised by the rules engine.

Every error is a :class:`ValueError` subclass carrying a stable ``code``, an untranslated message
``template`` (marked with :func:`~rules.engine.i18n.gettext_noop`) and its ``params``, so the API
can answer bad input with a 400 and a translated message, never a 500.
"""

from __future__ import annotations

from typing import Any


class RulesError(ValueError):
    """Bad input for a rule: the message names what is wrong."""

    code = "rules.invalid"

    def __init__(self, template: str, code: str | None = None, **params: Any) -> None:
        self.template = template
        self.params = params
        if code is not None:
            self.code = code
        super().__init__(template % params if params else template)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.template, "params": dict(self.params)}


class DiceError(RulesError):
    """A bad dice expression, a face outside the die, or given faces that ran out."""

    code = "dice.invalid"


class ProfileError(RulesError):
    """A characteristic outside its range; ``field`` names it."""

    code = "profile.invalid"

    def __init__(self, template: str, field: str, **params: Any) -> None:
        self.field = field
        super().__init__(template, field=field, **params)


class SpecError(RulesError):
    """An inconsistent attacker, defender or situation description; ``field`` names it."""

    code = "spec.invalid"

    def __init__(self, template: str, field: str, **params: Any) -> None:
        self.field = field
        super().__init__(template, field=field, **params)
