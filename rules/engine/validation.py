"""Validators shared by the engine's specs, checks and tables: each returns the value it accepts
and raises :class:`~rules.engine.errors.SpecError` naming the field it refuses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.errors import SpecError
from rules.engine.i18n import gettext_noop as _


def whole_number(name: str, value: Any, low: int = 0, high: int = 10) -> int:
    """A whole number from ``low`` to ``high`` (a bool is not a number here)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SpecError(
            _("%(field)s must be a whole number from %(low)d to %(high)d, not %(value)r."),
            field=name,
            low=low,
            high=high,
            value=value,
        )
    return value


def true_or_false(name: str, value: Any) -> bool:
    """A bool, and nothing that merely looks like one."""
    if not isinstance(value, bool):
        raise SpecError(_("%(field)s must be true or false."), field=name)
    return value


def spec_fields(
    spec: Any,
    *,
    numbers: Mapping[str, tuple[int, int]] | None = None,
    flags: Sequence[str] = (),
) -> None:
    """Check a spec's fields by name: ``numbers`` maps each whole-number field to its
    ``(low, high)`` range (checked first, in order), ``flags`` lists its bool fields."""
    for name, (low, high) in (numbers or {}).items():
        whole_number(name, getattr(spec, name), low, high)
    for name in flags:
        true_or_false(name, getattr(spec, name))
