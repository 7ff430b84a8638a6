"""House-rule constraints on rosters, registered by other apps (e.g. a campaign's caps).

``register(validator)`` adds ``validator(warband) -> None`` that raises ``ValidationError``.
Every roster-changing service calls ``check(warband=...)`` after applying its change, inside its
transaction, so a failing validator rolls the change back. This module imports no other app.
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
