"""The error of a log entry the rules refuse (an unknown fighter, a check not due…)."""

from __future__ import annotations

from typing import Any

from rules.engine.errors import RulesError


class TrackerError(RulesError):
    """A log entry that does not fit the battle as it stands; ``field`` names the payload key."""

    code = "tracker.invalid"

    def __init__(
        self, template: str, code: str | None = None, field: str | None = None, **params: Any
    ) -> None:
        self.field = field
        if field is not None:
            params.setdefault("field", field)  # templates may name it (%(field)s)
        super().__init__(template, code=code, **params)
