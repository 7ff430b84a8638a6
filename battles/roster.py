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
