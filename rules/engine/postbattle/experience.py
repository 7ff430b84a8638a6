"""Experience after a battle (underdog bonus, advances earned) and the warband rating."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.explain import Explainer
from rules.engine.i18n import gettext_noop as _
from rules.engine.postbattle._common import (
    TableResult,
    table_result,
    whole_count,
)
from rules.engine.tables import (
    HENCHMAN_THRESHOLDS,
    HERO_THRESHOLDS,
    RATING_PER_LARGE_CREATURE,
    RATING_PER_WARRIOR,
    UNDERDOG_TABLE,
    Row,
    lookup,
)

# Experience --------------------------------------------------------------------------------------


def underdog_bonus(
    *, own_rating: int, enemy_rating: int, table: Sequence[Row] = UNDERDOG_TABLE
) -> int:
    """XP for each surviving warrior of the lower-rated warband, by the rating gap."""
    gap = whole_count("enemy_rating", enemy_rating, 100_000) - whole_count(
        "own_rating", own_rating, 100_000
    )
    if gap <= 0:
        return 0
    return int(lookup(table, gap, table="underdog")["result"])


def battle_experience(
    *,
    hero: bool,
    survived: bool,
    leader: bool = False,
    won: bool = False,
    enemies_out_of_action: int = 0,
    scenario_bonus: int = 0,
    own_rating: int | None = None,
    enemy_rating: int | None = None,
    underdog_table: Sequence[Row] = UNDERDOG_TABLE,
) -> TableResult:
    """Experiencia of one hero or henchman group after a battle: +1 for surviving, +1 for the
    winning leader, heroes +1 per enemy put out of action, the scenario's bonus, and the underdog
    bonus (when both ratings are given) for survivors of the lower-rated warband."""
    ex = Explainer()
    whole_count("enemies_out_of_action", enemies_out_of_action, 100)
    whole_count("scenario_bonus", scenario_bonus, 100)
    parts: dict[str, int] = {}
    if survived:
        parts["survived"] = 1
    if leader and won:
        parts["winning_leader"] = 1
    if hero and enemies_out_of_action:
        parts["enemies_out_of_action"] = enemies_out_of_action
    if scenario_bonus:
        parts["scenario"] = scenario_bonus
    if survived and own_rating is not None and enemy_rating is not None:
        bonus = underdog_bonus(
            own_rating=own_rating, enemy_rating=enemy_rating, table=underdog_table
        )
        if bonus:
            parts["underdog"] = bonus
    total = sum(parts.values())
    for reason, amount in parts.items():
        ex.add(
            "experience." + reason, _("+%(amount)d XP: %(reason)s."), amount=amount, reason=reason
        )
    effects = [{"type": "experience", "amount": total}] if total else []
    return table_result(
        "experience", ex, "gained" if total else "none", effects, experience=total, breakdown=parts
    )


def advances_earned(
    *, old_xp: int, new_xp: int, hero: bool, thresholds: Sequence[int] | None = None
) -> list[int]:
    """Advance thresholds crossed going from ``old_xp`` to ``new_xp`` (each earns an advance)."""
    whole_count("old_xp", old_xp)
    whole_count("new_xp", new_xp)
    if thresholds is None:
        thresholds = HERO_THRESHOLDS if hero else HENCHMAN_THRESHOLDS
    return [t for t in thresholds if old_xp < t <= new_xp]


def warband_rating(
    *,
    warriors: Sequence[Mapping[str, Any]],
    per_warrior: int = RATING_PER_WARRIOR,
    per_large_creature: int = RATING_PER_LARGE_CREATURE,
) -> int:
    """Valor de la banda: 5 per warrior (20 for a large creature) plus every point of experience.
    ``warriors``: ``{"experience": 4, "large": false}`` per warrior; a league's content pack may
    change the points per warrior and per large creature. A hired sword (espada de alquiler)
    gives ``"rating"``: its own fixed value, from its catalogue data, instead of either."""
    total = 0
    for warrior in warriors:
        fixed = warrior.get("rating")
        if fixed is not None:
            total += whole_count("rating", fixed, 1000)
        else:
            total += per_large_creature if warrior.get("large") else per_warrior
        total += whole_count("experience", warrior.get("experience", 0))
    return total
