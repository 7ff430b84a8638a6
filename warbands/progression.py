"""Experience, advances due and warband rating as plain functions over pack data.

The numbers (thresholds, rating points) are the content pack's ``settings`` so a league can
change them; the defaults are the reference's (§5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

HERO_ADVANCE_THRESHOLDS = (
    *(2, 4, 6, 8, 11, 14, 17, 20, 24, 28, 32, 36),
    *(41, 46, 51, 57, 63, 69, 76, 83, 90),
)
HENCHMAN_ADVANCE_THRESHOLDS = (2, 5, 9, 14)
RATING_PER_WARRIOR = 5
RATING_PER_LARGE_CREATURE = 20


def pack_setting(settings: Mapping[str, Any] | None, key: str, default: Any) -> Any:
    return (settings or {}).get(key, default)


def hero_thresholds(settings: Mapping[str, Any] | None) -> Sequence[int]:
    return pack_setting(settings, "hero_advance_thresholds", HERO_ADVANCE_THRESHOLDS)


def henchman_thresholds(settings: Mapping[str, Any] | None) -> Sequence[int]:
    return pack_setting(settings, "henchman_advance_thresholds", HENCHMAN_ADVANCE_THRESHOLDS)


def advances_earned(thresholds: Iterable[int], *, start: int, experience: int) -> int:
    """Thresholds crossed after ``start`` (experience when hired) up to ``experience``."""
    return sum(1 for threshold in thresholds if start < threshold <= experience)


def advances_due(thresholds: Iterable[int], *, start: int, experience: int, taken: int) -> int:
    return max(0, advances_earned(thresholds, start=start, experience=experience) - taken)


def next_threshold(thresholds: Iterable[int], experience: int) -> int | None:
    return next((t for t in thresholds if t > experience), None)


def warrior_rating(*, is_large: bool, experience: int, settings: Mapping[str, Any] | None) -> int:
    per = (
        pack_setting(settings, "rating_per_large_creature", RATING_PER_LARGE_CREATURE)
        if is_large
        else pack_setting(settings, "rating_per_warrior", RATING_PER_WARRIOR)
    )
    return per + experience
