"""Undoing a resolved battle's sequence while nothing later depends on it."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annuminas.errors import Conflict
from warbands.models import Warband
from warbands.services.snapshots import warband_restore

from ..common import access
from ..models import (
    Battle,
    PendingDecision,
    PostBattleRun,
)

# --- revert ----------------------------------------------------------------------------------


@transaction.atomic
def battle_revert(*, battle: Battle, user) -> PostBattleRun:
    """Undo a resolved battle's sequence while nothing later depends on it.

    Only an organiser who does not play in the battle reverts it (as only he settles a
    dispute): a player who co-organises his campaign would otherwise resolve, revert and resolve
    again until the dice suit him. Every path (page, API, admin, jobs, commands) comes here.

    Every participating warband must still be exactly as the sequence left it (same version,
    no later post-battle run), so the roster, ledger and rating return exactly to before.
    """
    battle = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
    if not access.can_revert(user, battle):
        raise PermissionDenied(
            _("Only an organiser who does not play in this battle can revert its sequence.")
        )
    run = (
        PostBattleRun.objects.select_for_update()
        .filter(battle=battle, status=PostBattleRun.Status.APPLIED)
        .first()
    )
    if run is None:
        raise Conflict(
            _("This battle has no applied post-battle sequence to revert."),
            code="nothing_to_revert",
        )
    results = list(run.results.select_related("warband").order_by("warband_id"))
    for result in results:
        warband = Warband.objects.select_for_update().get(pk=result.warband_id)
        later = PostBattleRun.objects.filter(
            status=PostBattleRun.Status.APPLIED,
            results__warband=warband,
            pk__gt=run.pk,
        ).exists()
        if later or warband.version != result.version_after:
            raise Conflict(
                _(
                    "%(warband)s has changed since this battle's sequence (a later battle, a "
                    "purchase or an answered decision): it can no longer be reverted."
                )
                % {"warband": warband.name},
                code="warband_changed_since",
            )
    for result in results:
        warband_restore(warband=result.warband, snapshot=result.snapshot_before, source=run)
    PendingDecision.objects.filter(result__run=run, status=PendingDecision.Status.OPEN).update(
        status=PendingDecision.Status.CANCELLED
    )
    run.status = PostBattleRun.Status.REVERTED
    run.reverted_at = timezone.now()
    run.save(update_fields=["status", "reverted_at"])
    battle.status = Battle.Status.CONFIRMED
    battle.version += 1
    battle.save(update_fields=["status", "version", "updated_at"])
    return run
