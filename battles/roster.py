"""What the campaigns need to read from a roster (the ``warbands`` app owns the data)."""

from __future__ import annotations

from django.db.models import Count

from warbands.models import Fighter
from warbands.models.catalogue import translated


def fighter_type_counts(warband) -> dict[str, int]:
    """Fighter type name (in the reader's language) → warriors of that type in the roster
    (heroes and henchmen alike)."""
    rows = (
        Fighter.objects.filter(warband=warband, status__in=Fighter.IN_ROSTER)
        .values("fighter_type__name", "fighter_type__translations")
        .annotate(count=Count("id"))
    )
    counts: dict[str, int] = {}
    for row in rows:
        name = translated(row["fighter_type__name"], row["fighter_type__translations"], "name")
        counts[name] = counts.get(name, 0) + row["count"]
    return counts


def hired_swords_in(warband) -> dict[str, str]:
    """Slug → name (in the reader's language) of each hired sword in the roster."""
    rows = Fighter.objects.filter(
        warband=warband, status__in=Fighter.IN_ROSTER, hired_sword__isnull=False
    ).values_list("fighter_type__slug", "fighter_type__name", "fighter_type__translations")
    return {slug: translated(name, translations, "name") for slug, name, translations in rows}
