"""What the campaigns need to read from a roster (the ``warbands`` app owns the data)."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from battles.campaigns.setting_checks import FighterFact
from battles.models import Battle
from warbands.models import Fighter
from warbands.models.catalogue import translated


def roster_fighters(warband) -> list[FighterFact]:
    """The warriors in the roster as plain rows (one query): what every house rule reads."""
    rows = Fighter.objects.filter(warband=warband, status__in=Fighter.IN_ROSTER).values_list(
        "fighter_type__slug",
        "fighter_type__name",
        "fighter_type__translations",
        "is_hero",
        "hired_sword_id",
    )
    return [
        FighterFact(
            type_slug=slug,
            type_name=translated(name, translations, "name"),
            hero=hero,
            hired_sword=hired_sword is not None,
        )
        for slug, name, translations, hero, hired_sword in rows
    ]


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
            ),
            code="battle_under_way",
        )
