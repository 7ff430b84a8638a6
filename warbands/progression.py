"""The content pack's numbers for experience and rating, handed to the rules engine.

The rules themselves (thresholds crossed, points per warrior) are the engine's
(``rules.engine.advances_earned``, ``rules.engine.warband_rating``); a content pack's
``settings`` may change the numbers so a league can, and the defaults are the engine's tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.engine import advances_earned, warband_rating
from rules.engine.tables import (
    HENCHMAN_THRESHOLDS,
    HERO_THRESHOLDS,
    RATING_PER_LARGE_CREATURE,
    RATING_PER_WARRIOR,
)


def pack_setting(settings: Mapping[str, Any] | None, key: str, default: Any) -> Any:
    return (settings or {}).get(key, default)


def hero_thresholds(settings: Mapping[str, Any] | None) -> Sequence[int]:
    return pack_setting(settings, "hero_advance_thresholds", HERO_THRESHOLDS)


def henchman_thresholds(settings: Mapping[str, Any] | None) -> Sequence[int]:
    return pack_setting(settings, "henchman_advance_thresholds", HENCHMAN_THRESHOLDS)


def advances_due(
    thresholds: Sequence[int], *, hero: bool, start: int, experience: int, taken: int
) -> int:
    """Advances earned since ``start`` (experience when hired) and not taken yet."""
    earned = advances_earned(old_xp=start, new_xp=experience, hero=hero, thresholds=thresholds)
    return max(0, len(earned) - taken)


def next_threshold(thresholds: Iterable[int], experience: int) -> int | None:
    return next((t for t in thresholds if t > experience), None)


def roster_rating(
    warriors: Iterable[tuple[bool, int] | tuple[bool, int, int | None]],
    settings: Mapping[str, Any] | None,
) -> int:
    """The warband's rating from ``(is_large, experience)`` per warrior in the roster, or
    ``(is_large, experience, fixed)`` where a hired sword's own rating value replaces the
    points per warrior."""
    return warband_rating(
        warriors=[
            {"large": w[0], "experience": w[1], "rating": w[2] if len(w) > 2 else None}
            for w in warriors
        ],
        per_warrior=pack_setting(settings, "rating_per_warrior", RATING_PER_WARRIOR),
        per_large_creature=pack_setting(
            settings, "rating_per_large_creature", RATING_PER_LARGE_CREATURE
        ),
    )
