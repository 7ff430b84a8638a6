"""What the post-battle modules share: the seeds, the audit recorder, roster helpers."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from warbands.models import PROFILE_FIELDS, Fighter, Skill, Warband

from ..models import PendingDecision

logger = logging.getLogger(__name__)
MAX_SEED = 2**31 - 1
IN_ROSTER = Fighter.IN_ROSTER
ADVANCE_DECISIONS = (
    PendingDecision.Kind.CHARACTERISTIC,
    PendingDecision.Kind.SKILL,
    PendingDecision.Kind.LADS_GOT_TALENT,
)


def _warband_seed(seed: int, warband_id: int) -> int:
    """Each warband rolls its own stream, derived from the run's seed (stable everywhere)."""
    return (seed * 1_000_003 + warband_id * 7_919) % MAX_SEED


@dataclass
class Recorder:
    """The audit of one warband's sequence: steps with the engine result that explains them."""

    steps: list[dict[str, Any]] = field(default_factory=list)

    def add(self, step: str, *, who: str = "", result: Any = None, **extra: Any) -> None:
        entry: dict[str, Any] = {"step": step, "who": who, **extra}
        if result is not None:
            entry["result"] = result.to_dict()
        self.steps.append(entry)


def _profile(target) -> dict[str, Any]:
    return {name: getattr(target, name) for name in PROFILE_FIELDS}


def _race_maximum(race) -> dict[str, Any]:
    return {name: getattr(race, f"max_{name}") for name in PROFILE_FIELDS}


def _skill_options(fighter: Fighter) -> list[str]:
    """Skills he may learn: of his type's lists or his own (a promoted henchman's), not known
    yet. One query (his skills are the ones the apply read with the roster)."""
    known = {skill.pk for skill in fighter.skills.all()}
    lists = Q(skill_list__in=fighter.fighter_type.skill_lists.all())
    if fighter.skill_lists:
        lists |= Q(skill_list__slug__in=fighter.skill_lists)
    return list(
        Skill.objects.filter(lists)
        .exclude(pk__in=known)
        .order_by("skill_list__slug", "slug")
        .values_list("slug", flat=True)
    )


def _skill_list_options(warband: Warband) -> list[str]:
    """A promoted henchman picks from the skill lists of his warband's heroes."""
    heroes = warband.warband_type.fighter_types.filter(role__in=["leader", "hero"])
    slugs: set[str] = set()
    for fighter_type in heroes.prefetch_related("skill_lists"):
        slugs |= {skill_list.slug for skill_list in fighter_type.skill_lists.all()}
    return sorted(slugs)
