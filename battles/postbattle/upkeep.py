"""Hired swords' upkeep after a battle: a pending decision per sword, pay or let
him go. Never a silent charge, never a negative treasury: paying goes through the ledger and is
refused (nothing written, the decision still open) when the treasury is short.

The post-battle sequence calls ``upkeep_decisions_open(run=run)`` once its results exist (after
injuries, so a sword killed in the battle is not asked for); the owner answers with
``upkeep_answer`` (or ``decision_answer`` with ``answer_upkeep`` as the kind's handler).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from battles.models import PendingDecision, PostBattleRun
from battles.postbattle.pending import decision_settle
from warbands.models import Fighter
from warbands.services.hired_swords import hired_sword_leave, hired_sword_pay_upkeep
from warbands.services.undo import no_undo_point

PAY = "pay"
LEAVE = "leave"
UPKEEP_OPTIONS = [PAY, LEAVE]


@transaction.atomic
def upkeep_decisions_open(*, run: PostBattleRun) -> list[PendingDecision]:
    """One open upkeep decision per hired sword in the roster of each warband of ``run``.

    Idempotent: a sword that already has an upkeep decision for this run gets no second one.
    Returns the decisions created."""
    results = list(run.results.select_related("warband"))
    swords = (
        Fighter.objects.filter(
            warband__in=[result.warband_id for result in results],
            status__in=Fighter.IN_ROSTER,
            hired_sword__isnull=False,
        )
        .select_related("hired_sword")
        .order_by("pk")
    )
    asked = set(
        PendingDecision.objects.filter(
            result__in=results, kind=PendingDecision.Kind.UPKEEP
        ).values_list("fighter_id", flat=True)
    )
    result_of = {result.warband_id: result for result in results}
    created = PendingDecision.objects.bulk_create(
        PendingDecision(
            result=result_of[sword.warband_id],
            warband=result_of[sword.warband_id].warband,
            fighter=sword,
            kind=PendingDecision.Kind.UPKEEP,
            options=list(UPKEEP_OPTIONS),
            payload={"battle_id": run.battle_id, "upkeep": sword.hired_sword.upkeep},
        )
        for sword in swords
        if sword.pk not in asked
    )
    return created


def answer_upkeep(decision: PendingDecision, choice: Any) -> bool:
    """Pay the upkeep through the ledger, or the sword leaves. The shape of the handlers of
    ``battles.postbattle.decisions.decision_answer``: returns whether it was declined."""
    if choice not in UPKEEP_OPTIONS:
        raise ValidationError(
            {"choice": _('Answer "pay" (the upkeep, through the ledger) or "leave".')}
        )
    fighter = decision.fighter
    if fighter is None or fighter.status not in Fighter.IN_ROSTER:
        raise ValidationError(_("This hired sword is no longer in the roster."))
    if choice == PAY:
        hired_sword_pay_upkeep(fighter=fighter)
        return False
    with no_undo_point():  # the answer is final: an undo must not bring him back unpaid
        hired_sword_leave(fighter=fighter)
    return True


@transaction.atomic
def upkeep_answer(*, decision: PendingDecision, user, choice: Any) -> PendingDecision:
    """The owner answers an upkeep decision: ``"pay"`` or ``"leave"``. A payment the treasury
    cannot cover is refused and the decision stays open (he may still let the sword go)."""
    if decision.kind != PendingDecision.Kind.UPKEEP:
        raise ValidationError(_("This is not a hired sword's upkeep."))
    return decision_settle(
        decision=decision,
        user=user,
        choice=choice,
        handlers={PendingDecision.Kind.UPKEEP: answer_upkeep},
    )
