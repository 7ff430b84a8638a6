"""A battle report, checked: pure (no database), from the report and the facts of the battle it
is about, to a ``ReportPlan`` that says exactly what to write — or a ``ValidationError`` with
every problem, field by field. ``reports.py`` reads the facts and writes the plan."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from battles.models import BattleEvent, BattleParticipant


# --- what a report says (reports, settlements and corrections; pages, API, battle log) ----------
@dataclass
class ParticipantReport:
    warband_id: int
    routed: bool = False
    voluntary_rout: bool = False
    fighter_ids: Sequence[int] = ()


@dataclass
class EventReport:
    turn: int
    kind: str
    actor_warband_id: int | None = None
    actor_id: int | None = None
    target_warband_id: int | None = None
    target_id: int | None = None
    weapon: str = ""
    voluntary: bool = False
    notes: str = ""


@dataclass
class Report:
    """What a battle report says: the same shape for reports, settlements and corrections."""

    scenario: str = ""
    is_draw: bool = False
    winner_ids: Sequence[int] = ()
    participants: Sequence[ParticipantReport] = ()
    events: Sequence[EventReport] = ()
    notes: str = ""


# --- what the check needs to know about the battle ----------------------------------------------
@dataclass(frozen=True)
class FighterFacts:
    warband_id: int
    name: str
    active: bool
    status_label: str


@dataclass(frozen=True)
class BattleFacts:
    warbands: Mapping[int, str]  # the battle's warbands: id → name
    fighters: Mapping[int, FighterFacts]  # every fighter the report names (``named_fighters``)


# --- what to write --------------------------------------------------------------------------------
@dataclass(frozen=True)
class ParticipantPlan:
    warband_id: int
    result: str
    routed: bool
    voluntary_rout: bool
    fighter_ids: tuple[int, ...] | None  # None: the report said nothing of its fighters


@dataclass(frozen=True)
class EventPlan:
    turn: int
    kind: str
    actor_id: int | None
    actor_warband_id: int | None
    target_id: int | None
    target_warband_id: int | None
    weapon: str
    voluntary: bool
    notes: str


@dataclass(frozen=True)
class ReportPlan:
    scenario: str
    is_draw: bool
    notes: str
    participants: tuple[ParticipantPlan, ...]
    events: tuple[EventPlan, ...]


def _id(value) -> int | None:
    return int(value) if value not in (None, "") else None


def named_fighters(report: Report) -> set[int]:
    """The ids of every fighter ``report`` names: the facts must describe each of them."""
    in_details = {int(f) for item in report.participants for f in item.fighter_ids}
    in_events = {_id(f) for e in report.events for f in (e.actor_id, e.target_id)}
    return (in_details | in_events) - {None}


def _winner_problems(report: Report, winners: set[int], warband_ids: set[int]) -> list[str]:
    if report.is_draw:
        return [_("A draw has no winners.")] if winners else []
    if not winners:
        return [_("Say who won, or mark the battle as a draw.")]
    if not winners <= warband_ids:
        return [_("A winner must be one of the warbands.")]
    if winners == warband_ids:
        return [_("Not every warband can win: mark the battle as a draw instead.")]
    return []


def _participant_problems(
    report: Report, facts: BattleFacts, details: dict, *, check_fighter_status: bool
) -> list[str]:
    """Fill ``details`` (warband id → its part of the report) and say what is wrong in them."""
    problems = []
    for item in report.participants:
        if int(item.warband_id) not in facts.warbands:
            problems.append(_("Only the warbands of this battle can be reported on."))
        else:
            details[int(item.warband_id)] = item
    for warband_id, item in details.items():
        for fighter_id in item.fighter_ids:
            fighter = facts.fighters.get(int(fighter_id))
            if fighter is None or fighter.warband_id != warband_id:
                problems.append(
                    _("%(warband)s has no such fighter.") % {"warband": facts.warbands[warband_id]}
                )
            elif check_fighter_status and not fighter.active:
                problems.append(
                    _("%(fighter)s cannot take part: %(status)s.")
                    % {"fighter": fighter.name, "status": fighter.status_label}
                )
    return problems


def _side(item: EventReport, side: str, facts: BattleFacts, problems: list) -> tuple:
    """(fighter id, warband id) of the event's ``actor`` or ``target``; the warband follows
    from the fighter when one is named."""
    fighter_id = _id(getattr(item, f"{side}_id"))
    warband_id = _id(getattr(item, f"{side}_warband_id"))
    if fighter_id is not None:
        fighter = facts.fighters.get(fighter_id)
        if fighter is None or fighter.warband_id not in facts.warbands:
            problems.append(_("that fighter is not in this battle"))
            return None, None
        if warband_id is not None and warband_id != fighter.warband_id:
            problems.append(_("the fighter belongs to another warband"))
        warband_id = fighter.warband_id
    elif warband_id is not None and warband_id not in facts.warbands:
        problems.append(_("that warband is not in this battle"))
    return fighter_id, warband_id


def _event_plan(item: EventReport, facts: BattleFacts) -> tuple[EventPlan | None, list[str]]:
    problems: list[str] = []
    try:
        turn = int(item.turn)
    except (TypeError, ValueError):
        turn = 0
    if not 1 <= turn <= 99:
        problems.append(_("the turn must be a number from 1 to 99"))
    if item.kind not in BattleEvent.Kind.values:
        problems.append(_("unknown kind of event"))
    actor, actor_warband = _side(item, "actor", facts, problems)
    target, target_warband = _side(item, "target", facts, problems)
    if item.kind == BattleEvent.Kind.OUT_OF_ACTION and target is None and not target_warband:
        problems.append(_("say who was put out of action"))
    if item.kind == BattleEvent.Kind.OUT_OF_ACTION and target is not None and actor == target:
        problems.append(_("A fighter cannot put himself out of action."))
    if item.kind == BattleEvent.Kind.ROUT and not actor_warband:
        problems.append(_("say which warband routed"))
    if item.kind == BattleEvent.Kind.OBJECTIVE and not actor_warband:
        problems.append(_("say which warband took the objective"))
    if problems:
        return None, problems
    plan = EventPlan(
        turn=turn,
        kind=item.kind,
        actor_id=actor,
        actor_warband_id=actor_warband,
        target_id=target,
        target_warband_id=target_warband,
        weapon=(item.weapon or "")[:80],
        voluntary=bool(item.voluntary),
        notes=(item.notes or "")[:300],
    )
    return plan, []


def _participant_plan(
    warband_id: int, report: Report, winners: set[int], item, routs: dict[int, bool]
) -> ParticipantPlan:
    if report.is_draw:
        result = BattleParticipant.Result.DRAW
    elif warband_id in winners:
        result = BattleParticipant.Result.WIN
    else:
        result = BattleParticipant.Result.LOSS
    voluntary = bool(item and item.voluntary_rout) or routs.get(warband_id, False)
    routed = bool(item and item.routed) or warband_id in routs or voluntary
    return ParticipantPlan(
        warband_id=warband_id,
        result=result,
        routed=routed,
        voluntary_rout=voluntary,
        fighter_ids=None if item is None else tuple(int(f) for f in item.fighter_ids),
    )


def report_plan(report: Report, facts: BattleFacts, *, check_fighter_status: bool) -> ReportPlan:
    """Check ``report`` against ``facts``; the plan to write, or a ``ValidationError`` listing
    every problem (``winners``, ``participants``, ``events``). Touches no database."""
    errors: dict[str, list[str]] = {}
    winners = {int(w) for w in report.winner_ids}
    if problems := _winner_problems(report, winners, set(facts.warbands)):
        errors["winners"] = problems
    details: dict[int, ParticipantReport] = {}
    if problems := _participant_problems(
        report, facts, details, check_fighter_status=check_fighter_status
    ):
        errors["participants"] = problems
    events: list[EventPlan] = []
    routs: dict[int, bool] = {}
    for number, item in enumerate(report.events, start=1):
        event, problems = _event_plan(item, facts)
        if event is None:
            errors.setdefault("events", []).append(
                _("Event %(number)s: %(problems)s.")
                % {"number": number, "problems": "; ".join(str(p) for p in problems)}
            )
            continue
        if event.kind == BattleEvent.Kind.ROUT:
            warband = event.actor_warband_id
            routs[warband] = routs.get(warband, False) or event.voluntary
        events.append(event)
    if errors:
        raise ValidationError(errors)
    return ReportPlan(
        scenario=(report.scenario or "").strip()[:120],
        is_draw=bool(report.is_draw),
        notes=report.notes or "",
        participants=tuple(
            _participant_plan(warband_id, report, winners, details.get(warband_id), routs)
            for warband_id in facts.warbands
        ),
        events=tuple(events),
    )
