"""Battle pages: the battle (confirm, dispute, settle from it) and its report form, where
organisers also settle or correct a report. Thin, like the campaign pages
(``battles.campaigns.views``).
"""

from __future__ import annotations

from django import forms as django_forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms.utils import ErrorDict
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from annuminas.converters import parse_id
from annuminas.errors import Conflict
from battles.battlelog.scenarios import scenario_suggestions
from battles.common import access
from battles.common.pages import form_write, login_or_404, service_error_message, visible_or_login
from battles.models import Battle
from battles.reports import selectors, services
from battles.reports.forms import EventForm, ReasonForm, ReportForm
from warbands.models import Equipment

EVENT_ROWS = 6
MAX_EVENT_ROWS = 60
# The battle page's buttons: the service, whether it takes the posted reason, what it says.
BATTLE_BUTTONS = {
    "confirm": (
        services.battle_confirm,
        False,
        gettext_lazy("Report confirmed: the result counts."),
    ),
    "dispute": (
        services.battle_dispute,
        True,
        gettext_lazy("Report disputed: an organiser will settle it."),
    ),
    "settle": (
        services.battle_settle,
        True,
        gettext_lazy("Settled by an organiser: the report is confirmed."),
    ),
}


@login_or_404
@require_http_methods(["GET", "POST"])
def battle_detail(request: HttpRequest, pk: int) -> HttpResponse:
    battle = visible_or_login(request, lambda: selectors.battle_detail(user=request.user, pk=pk))
    user = request.user
    if request.method == "POST":
        if not user.is_authenticated:
            raise PermissionDenied
        button = BATTLE_BUTTONS.get(request.POST.get("op"))
        if button is None:
            raise Http404
        service, with_reason, done = button
        reason = {"reason": request.POST.get("reason", "")} if with_reason else {}
        version = parse_id(request.POST.get("version"))
        try:
            service(battle=battle, by=user, expected_version=version, **reason)
        except (ValidationError, Conflict) as error:
            service_error_message(request, error)
        else:
            messages.success(request, str(done))
        return redirect(battle)
    organiser = access.is_organiser(user, battle.campaign)
    writable = not battle.campaign.archived
    return render(
        request,
        "battles/battle_detail.html",
        {
            "battle": battle,
            "participants": list(battle.participants.all()),
            "events": _with_weapon_names(list(battle.events.all())),
            "corrections": list(battle.corrections.all()),
            "is_organiser": organiser,
            "can_report": writable
            and battle.status == Battle.Status.SCHEDULED
            and access.can_report(user, battle),
            "can_confirm": writable
            and battle.status == Battle.Status.REPORTED
            and access.can_confirm(user, battle),
            "can_dispute": writable
            and battle.status == Battle.Status.REPORTED
            and access.can_dispute(user, battle),
            "can_settle": writable
            and organiser
            and battle.status in (Battle.Status.REPORTED, Battle.Status.DISPUTED),
            "can_correct": writable and organiser and battle.is_frozen and not battle.is_bye,
            "reason_form": ReasonForm(),
        },
    )


def _report_initial(battle: Battle) -> tuple[dict, list[dict]]:
    """The form filled with the current report (for corrections and settlements)."""
    initial = {
        "scenario": battle.scenario,
        "is_draw": battle.is_draw,
        "notes": battle.notes,
        "winners": [str(p.warband_id) for p in battle.participants.all() if p.result == "win"],
    }
    for participant in battle.participants.all():
        prefix = f"w{participant.warband_id}"
        initial[f"{prefix}_fighters"] = [str(f.pk) for f in participant.fighters.all()]
        initial[f"{prefix}_routed"] = participant.routed
        initial[f"{prefix}_voluntary"] = participant.voluntary_rout
    events = []
    for event in battle.events.all():
        actor = (
            f"f{event.actor_id}"
            if event.actor_id
            else (f"w{event.actor_warband_id}" if event.actor_warband_id else "")
        )
        target = (
            f"f{event.target_id}"
            if event.target_id
            else (f"w{event.target_warband_id}" if event.target_warband_id else "")
        )
        events.append({"turn": event.turn, "kind": event.kind, "actor": actor, "target": target,
                       "weapon": event.weapon, "voluntary": event.voluntary})  # fmt: skip
    return initial, events


@login_required
@require_http_methods(["GET", "POST"])
def battle_report(request: HttpRequest, pk: int) -> HttpResponse:
    """Report a scheduled battle; organisers also settle or correct a report here."""
    battle = selectors.battle_detail(user=request.user, pk=pk)
    user = request.user
    organiser = access.is_organiser(user, battle.campaign)
    correcting = (
        battle.status in (Battle.Status.DISPUTED, Battle.Status.REPORTED) or battle.is_frozen
    )
    if battle.is_bye:
        raise Http404
    if correcting:
        if not organiser:
            raise PermissionDenied
    elif not access.can_report(user, battle):
        raise PermissionDenied
    participants = list(battle.participants.all())
    fighters = selectors.battle_roster_choices(battle)
    if correcting:
        initial, event_initial = _report_initial(battle)
    else:
        initial = {
            f"w{p.warband_id}_fighters": [
                str(f.pk) for f in fighters.get(p.warband_id, []) if f.status == "active"
            ]
            for p in participants
        }
        initial["scenario"] = battle.scenario
        event_initial = []
    rows = request.GET.get("rows", "")
    extra = min(parse_id(rows), MAX_EVENT_ROWS) if parse_id(rows) is not None else EVENT_ROWS
    EventFormSet = django_forms.formset_factory(EventForm, extra=extra, max_num=MAX_EVENT_ROWS)
    side_choices = ReportForm.side_choices(participants, fighters)
    adding_rows = request.method == "POST" and "more_rows" in request.POST
    data = _with_more_rows(request.POST, extra) if adding_rows else request.POST or None
    form = ReportForm(
        data,
        initial=initial,
        participants=participants,
        fighters_by_warband=fighters,
        with_reason=correcting,
    )
    formset = EventFormSet(
        data,
        initial=event_initial,
        prefix="events",
        form_kwargs={"side_choices": side_choices},
    )
    if adding_rows:
        _unchecked(form, formset)
    elif request.method == "POST" and form.is_valid() and formset.is_valid():
        events = [f.to_event() for f in formset.forms if f.cleaned_data and not f.is_blank()]
        report = form.to_report(events)
        version = parse_id(request.POST.get("version"))
        if battle.is_frozen:
            service, by = (
                services.battle_correct,
                {"by": user, "reason": form.cleaned_data["reason"]},
            )
        elif correcting:
            service, by = (
                services.battle_settle,
                {"by": user, "reason": form.cleaned_data["reason"]},
            )
        else:
            service, by = services.battle_report, {"reporter": user}
        if form_write(form, service, battle=battle, report=report, expected_version=version, **by):
            messages.success(request, _("Battle report saved."))
            return redirect(battle)
    return render(
        request,
        "battles/battle_report.html",
        {
            "battle": battle,
            "form": form,
            "formset": formset,
            "correcting": correcting,
            "can_add_rows": formset.total_form_count() < MAX_EVENT_ROWS,
            "scenarios": scenario_suggestions(battle.campaign),
        },
    )


def _with_more_rows(posted, extra: int):
    """ "More rows": what was typed, with more empty event rows (up to the most allowed)."""
    data = posted.copy()
    typed = parse_id(data.get("events-TOTAL_FORMS", "")) or 0
    data["events-TOTAL_FORMS"] = str(min(max(typed, extra) + EVENT_ROWS, MAX_EVENT_ROWS))
    return data


def _with_weapon_names(events: list) -> list:
    """Each event with ``weapon_name``: the weapon by its catalogue name in the reader's
    language (the report keeps its slug), as typed when the catalogue does not know it."""
    slugs = {event.weapon for event in events if event.weapon}
    names = {item.slug: item.display_name for item in Equipment.objects.filter(slug__in=slugs)}
    for event in events:
        event.weapon_name = names.get(event.weapon, event.weapon)
    return events


def _unchecked(form, formset) -> None:
    """Show what was typed without judging it yet (the player only asked for more rows): the
    forms keep their data and report no errors until the report is sent."""
    form._errors = ErrorDict()
    formset._errors = [ErrorDict() for _form in formset.forms]
    formset._non_form_errors = formset.error_class()
    for event in formset.forms:
        event._errors = ErrorDict()
