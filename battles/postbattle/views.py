"""Post-battle pages: the results with their dice, the decisions wizard, the job progress bar."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from annuminas.confirmation import confirmation
from annuminas.errors import Conflict
from battles.common import access
from battles.common.pages import service_error_message
from battles.models import Battle, Job, PendingDecision, PostBattleRun, Round
from battles.postbattle import (
    battle_resolve_start,
    battle_revert,
    decision_answer,
    round_resolve_start,
)
from battles.postbattle.presenters import Names, present_decision, present_steps


def _battle(request: HttpRequest, pk: int) -> Battle:
    return get_object_or_404(
        access.visible_battles(request.user).select_related("campaign", "round"), pk=pk
    )


def _to_job(request: HttpRequest, start: Callable[[], Job], back: HttpResponse) -> HttpResponse:
    """Start a resolve job and follow its progress; if the service refuses, ``back`` says why."""
    try:
        job = start()
    except (ValidationError, Conflict) as error:
        service_error_message(request, error)
        return back
    return redirect("job-detail", pk=job.pk)


@login_required
@require_GET
def battle_postbattle(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle(request, pk)
    organiser = access.is_organiser(request.user, battle.campaign)
    run = (
        PostBattleRun.objects.filter(battle=battle)
        .exclude(status=PostBattleRun.Status.REVERTED)
        .select_related("job", "faces_typed_by")
        .first()
    )
    results = []
    decisions = []
    if run is not None:
        rows = list(
            run.results.select_related("warband", "warband__owner").order_by("warband__name")
        )
        pending = list(
            PendingDecision.objects.filter(
                result__run=run, warband__owner=request.user
            ).select_related("fighter", "group", "warband")
        )
        names = Names.load(pending, (step for row in rows for step in row.steps))
        results = [{"result": row, "steps": present_steps(row.steps, names)} for row in rows]
        decisions = [present_decision(decision, names) for decision in pending]
    own_warbands = [
        item["result"].warband
        for item in results
        if item["result"].warband.owner_id == request.user.pk
    ]
    return render(
        request,
        "battles/postbattle.html",
        {
            "battle": battle,
            "run": run,
            "results": results,
            "decisions": decisions,
            "own_warbands": own_warbands,
            "organiser": organiser,
            "can_revert": access.can_revert(request.user, battle),
            "can_resolve": battle.status == Battle.Status.CONFIRMED
            and (organiser or access.is_participant(request.user, battle)),
        },
    )


@login_required
@require_POST
def battle_postbattle_resolve(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle(request, pk)
    if not (
        access.is_organiser(request.user, battle.campaign)
        or access.is_participant(request.user, battle)
    ):
        raise PermissionDenied
    return _to_job(
        request,
        lambda: battle_resolve_start(battle=battle, user=request.user),
        redirect("battle-postbattle", pk=pk),
    )


@login_required
@require_POST
def battle_postbattle_revert(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle(request, pk)
    if not access.can_revert(request.user, battle):
        raise PermissionDenied
    asking = confirmation(
        request,
        question=_(
            "Undo this post-battle sequence? The warbands' rosters, ledgers and ratings go back "
            "to how they were before it."
        ),
        label=_("Yes, undo it"),
        back_url=reverse("battle-postbattle", args=[pk]),
        back_label=_("After the battle"),
    )
    if asking is not None:
        return asking
    try:
        battle_revert(battle=battle, user=request.user)
        messages.success(request, _("The post-battle sequence was reverted."))
    except (ValidationError, Conflict) as error:
        service_error_message(request, error)
    return redirect("battle-postbattle", pk=pk)


@login_required
@require_POST
def round_resolve(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round = get_object_or_404(
        Round.objects.select_related("campaign").filter(
            campaign__in=access.organised_campaigns(request.user)
        ),
        campaign__slug=slug,
        number=number,
    )
    return _to_job(
        request,
        lambda: round_resolve_start(round=round, user=request.user),
        redirect("campaign-detail", slug=slug),
    )


def _job(request: HttpRequest, pk: int) -> Job:
    job = get_object_or_404(Job.objects.select_related("campaign", "round", "battle"), pk=pk)
    if job.created_by_id != request.user.pk and not access.is_organiser(request.user, job.campaign):
        raise Http404
    return job


@login_required
@require_GET
def job_detail(request: HttpRequest, pk: int) -> HttpResponse:
    job = _job(request, pk)
    template = (
        "battles/_job_progress.html"
        if request.headers.get("HX-Request") == "true"
        else "battles/job_detail.html"
    )
    battles = Battle.objects.filter(postbattle_runs__job=job).order_by("pk").distinct()
    return render(request, template, {"job": job, "battles": battles})


@login_required
@require_POST
def decision_answer_page(request: HttpRequest, pk: int) -> HttpResponse:
    decision = get_object_or_404(
        PendingDecision.objects.select_related("result__run").filter(warband__owner=request.user),
        pk=pk,
    )
    battle_id = decision.result.run.battle_id
    if decision.kind == PendingDecision.Kind.LADS_GOT_TALENT:
        try:
            choice = {
                "fighter": int(request.POST.get("fighter", "")),
                "skill_lists": request.POST.getlist("skill_lists"),
            }
        except ValueError:
            choice = None
    elif decision.kind == PendingDecision.Kind.RARE_ITEM and "decline" in request.POST:
        asking = confirmation(
            request,
            question=_("Leave the rare item? It is gone for good: it cannot be bought later."),
            label=_("Yes, leave it"),
            back_url=reverse("battle-postbattle", args=[battle_id]),
            back_label=_("After the battle"),
        )
        if asking is not None:
            return asking
        choice = None
    else:
        choice = request.POST.get("choice") or None
    try:
        decision_answer(decision=decision, user=request.user, choice=choice)
        messages.success(request, _("Decision recorded."))
    except (ValidationError, Conflict) as error:
        service_error_message(request, error)
    return redirect("battle-postbattle", pk=battle_id)
