"""What the campaigns need to read from a roster (the ``warbands`` app owns the data)."""

from __future__ import annotations

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from warbands.models import Fighter
from warbands.models.catalogue import translated

from .models import Battle


def fighter_type_counts(warband) -> dict[str, int]:
    """Fighter type name (in the reader's language) → heroes of that type in the roster.
    Henchmen are the warband's troops, which the copies cap leaves alone (the organised events'
    guidelines: the limit on copies of one datasheet does not apply to Troops)."""
    rows = (
        Fighter.objects.filter(warband=warband, status__in=Fighter.IN_ROSTER, is_hero=True)
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


def undo_refused_while_a_battle_is_under_way(warband) -> None:
    """An undo is refused while one of the warband's battles is under way — reported, confirmed
    or disputed, or scheduled with a lineup, a setup or a log — until its post-battle sequence is
    applied (which changes the roster, so the undo is gone anyway): a hire, a purchase or a
    dismissal taken back after the battle it shaped would rewrite that battle."""
    under_way = Battle.objects.filter(participants__warband=warband).filter(
        Q(status__in=[Battle.Status.REPORTED, Battle.Status.DISPUTED, Battle.Status.CONFIRMED])
        | Q(
            Q(status=Battle.Status.SCHEDULED)
            & (Q(log_setup__isnull=False) | Q(lineups__isnull=False) | Q(log_entries__isnull=False))
        )
    )
    if under_way.exists():
        raise Conflict(
            _(
                "Not while one of this warband's battles is under way (set up, logged or "
                "reported): its last change can no longer be undone."
            )
        )
