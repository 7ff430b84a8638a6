"""Battle reports: report, confirm, dispute, settle, correct, and withdraw (the log's decisive
entry struck out: the battle goes on).

Each write locks the battle row (``battles.common.writes.open_battle``: version, archive, who
may). A report's content is checked by the pure ``check.report_plan`` from facts read here, then
written by ``_write_report`` — nothing is written if any part is wrong.
"""

from __future__ import annotations

from dataclasses import asdict

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from annuminas.errors import Conflict
from battles.common import access
from battles.common.writes import Gate, open_battle, require_organiser
from battles.models import Battle, BattleCorrection, BattleEvent, BattleParticipant
from battles.models.notifications import Event
from battles.notifications.services import notify
from battles.reports.check import (
    BattleFacts,
    EventReport,
    FighterFacts,
    ParticipantPlan,
    ParticipantReport,
    Report,
    ReportPlan,
    named_fighters,
    report_plan,
)
from warbands.models import Fighter

# What a report is made of comes with the services that take it (``services.Report(…)``).
__all__ = [
    "EventReport",
    "ParticipantReport",
    "Report",
    "battle_confirm",
    "battle_correct",
    "battle_dispute",
    "battle_report",
    "battle_settle",
    "battle_withdraw_report",
]

REPORT = Gate(
    may=access.can_report,
    refusal=gettext_lazy("Only a warband in this battle or an organiser may report it."),
    statuses=(Battle.Status.SCHEDULED,),
    clash=gettext_lazy("This battle is %(status)s: it cannot be reported again."),
    frozen_clash=gettext_lazy(
        "This battle is confirmed: its report is frozen; ask an organiser to correct it."
    ),
)
CONFIRM = Gate(
    may=access.can_confirm,
    refusal=gettext_lazy(
        "Only the opponent of the one who reported, or an organiser who does not play in "
        "this battle, may confirm."
    ),
    statuses=(Battle.Status.REPORTED,),
    clash=gettext_lazy("Only a reported battle can be confirmed; this one is %(status)s."),
)
DISPUTE = Gate(
    may=access.can_dispute,
    refusal=gettext_lazy("Only the opponent of the one who reported may dispute it."),
    statuses=(Battle.Status.REPORTED,),
    clash=gettext_lazy("Only a reported battle can be disputed; this one is %(status)s."),
)
_NEUTRAL_ORGANISER = gettext_lazy(
    "You play in this battle: an organiser who does not play in it settles or corrects its report."
)
SETTLE = Gate(
    may=access.can_settle,
    refusal=_NEUTRAL_ORGANISER,
    statuses=(Battle.Status.DISPUTED, Battle.Status.REPORTED),
    clash=gettext_lazy(
        "Only a reported or disputed battle can be settled; this one is %(status)s."
    ),
)
CORRECT = Gate(may=access.can_settle, refusal=_NEUTRAL_ORGANISER)
WITHDRAW = Gate(
    may=access.is_participant,
    refusal=gettext_lazy("Only the battle's players may strike out the entry that finished it."),
    statuses=(Battle.Status.REPORTED, Battle.Status.DISPUTED),
    clash=gettext_lazy("Only a reported or disputed battle goes on again; this one is %(status)s."),
)


def _report_snapshot(battle: Battle) -> dict:
    participants = battle.participants.order_by("id").prefetch_related("fighters")
    return {
        "scenario": battle.scenario,
        "is_draw": battle.is_draw,
        "notes": battle.notes,
        "participants": [
            {
                "warband": p.warband_id,
                "result": p.result,
                "routed": p.routed,
                "voluntary_rout": p.voluntary_rout,
                "fighters": sorted(f.pk for f in p.fighters.all()),
            }
            for p in participants
        ],
        "events": [
            {
                "turn": e.turn,
                "kind": e.kind,
                "actor_warband": e.actor_warband_id,
                "actor": e.actor_id,
                "target_warband": e.target_warband_id,
                "target": e.target_id,
                "weapon": e.weapon,
                "voluntary": e.voluntary,
                "notes": e.notes,
            }
            for e in battle.events.order_by("turn", "id")
        ],
    }


def _write_report(battle: Battle, plan: ReportPlan, participants: dict) -> None:
    """Write a checked report onto ``battle`` (locked; saved by the caller)."""
    battle.scenario, battle.is_draw, battle.notes = plan.scenario, plan.is_draw, plan.notes
    for part in plan.participants:
        participant = participants[part.warband_id]
        participant.result = part.result
        participant.routed = part.routed
        participant.voluntary_rout = part.voluntary_rout
        participant.save(update_fields=["result", "routed", "voluntary_rout"])
        if part.fighter_ids is not None:
            participant.fighters.set(part.fighter_ids)
    battle.events.all().delete()
    # An event's plan names exactly the event's columns.
    BattleEvent.objects.bulk_create(
        BattleEvent(battle=battle, **asdict(event)) for event in plan.events
    )


def _clear_report(battle: Battle) -> None:
    """Write an empty report onto ``battle`` (locked; saved by the caller): no result, no
    rout, no events, no draw; the fighters who took part stay as they were."""
    participants = {p.warband_id: p for p in battle.participants.all()}
    plan = ReportPlan(
        scenario=battle.scenario,
        is_draw=False,
        notes=battle.notes,
        participants=tuple(
            ParticipantPlan(
                warband_id=warband_id,
                result=BattleParticipant.Result.PENDING,
                routed=False,
                voluntary_rout=False,
                fighter_ids=None,
            )
            for warband_id in participants
        ),
        events=(),
    )
    _write_report(battle, plan, participants)


def _apply_report(battle: Battle, report: Report, *, check_fighter_status: bool) -> None:
    """Read the facts ``report`` is checked against, check it, write it (``battle`` locked)."""
    participants = {p.warband_id: p for p in battle.participants.select_related("warband")}
    facts = BattleFacts(
        warbands={warband_id: str(p.warband) for warband_id, p in participants.items()},
        fighters={
            fighter.pk: FighterFacts(
                warband_id=fighter.warband_id,
                name=fighter.name,
                active=fighter.status == Fighter.Status.ACTIVE,
                status_label=fighter.get_status_display(),
            )
            for fighter in Fighter.objects.in_bulk(named_fighters(report)).values()
        },
    )
    plan = report_plan(report, facts, check_fighter_status=check_fighter_status)
    _write_report(battle, plan, participants)


def _snapshot_ratings(battle: Battle) -> None:
    for participant in battle.participants.select_related("warband"):
        if participant.rating_at_battle != participant.warband.rating:
            participant.rating_at_battle = participant.warband.rating
            participant.save(update_fields=["rating_at_battle"])


def _save(battle: Battle, change_reason: str) -> Battle:
    battle.version += 1
    battle._change_reason = change_reason
    battle.save()
    return battle


def _confirmed_by(battle: Battle, by) -> None:
    battle.status = Battle.Status.CONFIRMED
    battle.confirmed_by = by
    battle.confirmed_at = timezone.now()


def _reason(reason: str, missing: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": missing})
    return reason


@transaction.atomic
def battle_report(
    *, battle: Battle, reporter, report: Report, expected_version: int | None = None
) -> Battle:
    """A participant (or an organiser) reports a scheduled battle: scheduled → reported."""
    battle = open_battle(battle, user=reporter, expected_version=expected_version, gate=REPORT)
    _apply_report(battle, report, check_fighter_status=True)
    _snapshot_ratings(battle)
    battle.status = Battle.Status.REPORTED
    battle.reported_by = reporter
    battle.reported_at = timezone.now()
    battle = _save(battle, _("Reported"))
    notify(
        event=Event.REPORT_TO_CONFIRM,
        battle=battle,
        actor=reporter,
        params={"version": battle.version},
    )
    return battle


@transaction.atomic
def battle_confirm(*, battle: Battle, by, expected_version: int | None = None) -> Battle:
    """The opponent (or an organiser) confirms the report: reported → confirmed (frozen)."""
    battle = open_battle(battle, user=by, expected_version=expected_version, gate=CONFIRM)
    _confirmed_by(battle, by)
    return _save(battle, _("Confirmed"))


@transaction.atomic
def battle_dispute(
    *, battle: Battle, by, reason: str, expected_version: int | None = None
) -> Battle:
    """The opponent disputes the report, saying why: reported → disputed."""
    battle = open_battle(battle, user=by, expected_version=expected_version, gate=DISPUTE)
    battle.dispute_reason = _reason(reason, _("Say what is wrong with the report."))
    battle.status = Battle.Status.DISPUTED
    battle.disputed_by = by
    battle = _save(battle, _("Disputed"))
    notify(event=Event.REPORT_DISPUTED, battle=battle, actor=by, params={"version": battle.version})
    return battle


@transaction.atomic
def battle_withdraw_report(*, battle: Battle, by) -> Battle:
    """The report the battle log wrote is withdrawn: a player struck out the entry that
    finished the battle (``battles.battlelog.services``, under the same row lock) while the
    opponent had not confirmed it yet. Reported or disputed → scheduled, the report cleared,
    the opponent told."""
    battle = open_battle(battle, user=by, expected_version=None, gate=WITHDRAW)
    _clear_report(battle)
    battle.status = Battle.Status.SCHEDULED
    battle.reported_by = battle.reported_at = None
    battle.disputed_by, battle.dispute_reason = None, ""
    battle = _save(battle, _("Report withdrawn: the decisive entry was struck out"))
    notify(
        event=Event.REPORT_WITHDRAWN,
        battle=battle,
        actor=by,
        params={"version": battle.version},
    )
    return battle


def _record_correction(battle: Battle, by, reason: str, before: dict) -> BattleCorrection:
    return BattleCorrection.objects.create(
        battle=battle, by=by, reason=reason, before=before, after=_report_snapshot(battle)
    )


@transaction.atomic
def battle_settle(
    *,
    battle: Battle,
    by,
    reason: str,
    report: Report | None = None,
    expected_version: int | None = None,
) -> Battle:
    """An organiser settles a dispute (or confirms a report), optionally rewriting the report:
    → confirmed. The decision is recorded as a correction."""
    require_organiser(by, battle.campaign)
    battle = open_battle(battle, user=by, expected_version=expected_version, gate=SETTLE)
    reason = _reason(reason, _("Say how the dispute was settled."))
    before = _report_snapshot(battle)
    if report is not None:
        _apply_report(battle, report, check_fighter_status=False)
    _confirmed_by(battle, by)
    _save(battle, _("Settled: %(reason)s") % {"reason": reason[:80]})
    _record_correction(battle, by, reason, before)
    return battle


@transaction.atomic
def battle_correct(
    *, battle: Battle, by, reason: str, report: Report, expected_version: int | None = None
) -> Battle:
    """An organiser corrects a confirmed (or resolved) report; the change is recorded with its
    reason. Post-battle results already applied are not re-rolled."""
    require_organiser(by, battle.campaign)
    battle = open_battle(battle, user=by, expected_version=expected_version, gate=CORRECT)
    if not battle.is_frozen or battle.is_bye:
        raise Conflict(
            _("Only a confirmed report is corrected; this one can still be reported."),
            code="battle_status",
        )
    reason = _reason(reason, _("Say why the report is corrected."))
    before = _report_snapshot(battle)
    _apply_report(battle, report, check_fighter_status=False)
    _save(battle, _("Corrected: %(reason)s") % {"reason": reason[:80]})
    _record_correction(battle, by, reason, before)
    return battle
