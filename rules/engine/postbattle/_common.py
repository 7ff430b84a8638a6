"""What every post-battle table shares: :class:`TableResult` and the validators of its
parameters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.engine.errors import SpecError
from rules.engine.explain import Explainer, Step, explained_dict, jsonable
from rules.engine.i18n import gettext_noop as _
from rules.engine.profile import Profile
from rules.engine.tables import NOT_LASTING_INJURIES, RACIAL_MAXIMUMS, SERIOUS_INJURY_LABELS

MAX_TABLE_REROLLS = 100
"""Guard against a custom table where no result can ever be kept."""


class EffectKind(StrEnum):
    """What a post-battle result does to a warrior (``Effect.kind``)."""

    DEAD = "dead"
    LOSE_EQUIPMENT = "lose_equipment"
    CHARACTERISTIC = "characteristic"
    MISSES_BATTLES = "misses_battles"
    SPECIAL_RULE = "special_rule"
    CAPTURED = "captured"
    GOLD = "gold"
    EXPERIENCE = "experience"
    FINDS = "finds"
    PROMOTION = "promotion"


@dataclass(frozen=True)
class Effect:
    """One effect of a result, typed: the services apply these and never read the dicts.

    ``field``/``delta``: a characteristic change (``m`` in cm); ``count``: battles missed;
    ``rule``: a special rule (``hatred:<target>`` for bitter enmity); ``amount``: gold,
    experience or finds; ``sale_value``: a captive's price."""

    kind: EffectKind
    field: str = ""
    delta: float = 0
    count: int = 0
    rule: str = ""
    amount: int = 0
    sale_value: int = 0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Effect:
        rule = data.get("rule", "")
        if rule == "hatred" and data.get("target"):
            rule = f"hatred:{data['target']}"
        return cls(
            kind=EffectKind(data["type"]),
            field=data.get("field", ""),
            delta=data.get("delta", 0),
            count=data.get("count", 0),
            rule=rule,
            amount=data.get("amount", 0),
            sale_value=data.get("sale_value", 0),
        )


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

    @property
    def typed_effects(self) -> tuple[Effect, ...]:
        """The ``effects`` as :class:`Effect` values (the dicts stay for the JSON audit)."""
        return tuple(Effect.from_dict(effect) for effect in self.effects)

    @property
    def lasting_injuries(self) -> tuple[str, ...]:
        """Every injury this result leaves on the sheet, those inside "multiple injuries" too."""
        codes = [self.outcome]
        codes += [sub["outcome"] for sub in self.details.get("injuries", []) if "outcome" in sub]
        return tuple(code for code in codes if code not in NOT_LASTING_INJURIES)

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


def injury_label(code: str) -> str:
    """The readable name of an injury (a msgid: the sheet shows it translated)."""
    return SERIOUS_INJURY_LABELS.get(code, code)
