"""What the campaigns need to read from a roster (the ``warbands`` app owns the data)."""

from __future__ import annotations

from django.db.models import Count

from warbands.models import Fighter


def fighter_type_counts(warband) -> dict[str, int]:
    """Fighter type name → warriors of that type in the roster (heroes and henchmen alike)."""
    rows = (
        Fighter.objects.filter(warband=warband, status__in=Fighter.IN_ROSTER)
        .values("fighter_type__name")
        .annotate(count=Count("id"))
    )
    return {row["fighter_type__name"]: row["count"] for row in rows}


def hired_swords_in(warband) -> dict[str, str]:
    """Slug → name of each hired sword in the roster."""
    rows = Fighter.objects.filter(
        warband=warband, status__in=Fighter.IN_ROSTER, hired_sword__isnull=False
    ).values_list("fighter_type__slug", "fighter_type__name")
    return dict(rows)
