"""What every post-battle table shares: :class:`TableResult` and the validators of its
parameters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.errors import SpecError
from rules.engine.explain import Explainer, Step, explained_dict, jsonable
from rules.engine.i18n import gettext_noop as _
from rules.engine.profile import Profile
from rules.engine.tables import (
    RACIAL_MAXIMUMS,
)

MAX_TABLE_REROLLS = 100
"""Guard against a custom table where no result can ever be kept."""


@dataclass(frozen=True)
class TableResult:
    """A post-battle result: ``outcome`` code, ``effects`` to apply, ``pending_choices`` for the
    player, ``details`` (sub-results, totals), with its ``steps`` and ``rolls``."""

    kind: str
    outcome: str
    effects: tuple[dict[str, Any], ...] = ()
    pending_choices: tuple[dict[str, Any], ...] = ()
    details: dict[str, Any] = field(default_factory=dict, hash=False)
    steps: tuple[Step, ...] = ()
    rolls: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "outcome": self.outcome,
            "effects": jsonable(list(self.effects)),
            "pending_choices": jsonable(list(self.pending_choices)),
            "details": jsonable(self.details),
            **explained_dict(self.steps, self.rolls),
        }


def table_result(
    kind: str,
    ex: Explainer,
    outcome: str,
    effects: Sequence[dict[str, Any]] = (),
    pending: Sequence[dict[str, Any]] = (),
    **details: Any,
) -> TableResult:
    return TableResult(
        kind, outcome, tuple(effects), tuple(pending), details, tuple(ex.steps), ex.rolls()
    )


def whole_count(name: str, value: Any, high: int = 10_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise SpecError(
            _("%(field)s must be a whole number from 0 to %(high)d."), field=name, high=high
        )
    return value


def as_profile(name: str, value: Any) -> Profile:
    if isinstance(value, Profile):
        return value
    if isinstance(value, str):
        if value not in RACIAL_MAXIMUMS:
            raise SpecError(
                _("%(race)s is not a known race; use one of %(choices)s."),
                field=name,
                race=value,
                choices=", ".join(RACIAL_MAXIMUMS),
            )
        return RACIAL_MAXIMUMS[value]
    if isinstance(value, Mapping):
        return Profile.from_dict(dict(value))
    raise SpecError(_("%(field)s must be a profile."), field=name)
