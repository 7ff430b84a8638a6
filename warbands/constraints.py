"""House-rule constraints on rosters, registered by other apps (e.g. a campaign's caps).

``register(validator)`` adds ``validator(warband) -> None`` that raises ``ValidationError``.
Every roster-changing service calls ``check(warband=...)`` after applying its change, inside its
transaction, so a failing validator rolls the change back. ``register_undo_guard(guard)`` adds
``guard(warband) -> None`` that raises (``Conflict``) when the warband's last change may not be
undone now (``warbands.services.undo``). This module imports no other app.
"""

from __future__ import annotations

from collections.abc import Callable

Validator = Callable[[object], None]

_validators: list[Validator] = []


def register(validator: Validator) -> Validator:
    """Add a validator (usable as a decorator); registering the same function twice is a no-op."""
    if validator not in _validators:
        _validators.append(validator)
    return validator


def unregister(validator: Validator) -> None:
    if validator in _validators:
        _validators.remove(validator)


def check(*, warband) -> None:
    for validator in list(_validators):
        validator(warband)


_undo_guards: list[Validator] = []


def register_undo_guard(guard: Validator) -> Validator:
    """Add a check that may refuse an undo (registering the same function twice is a no-op)."""
    if guard not in _undo_guards:
        _undo_guards.append(guard)
    return guard


def check_undo(*, warband) -> None:
    for guard in list(_undo_guards):
        guard(warband)
