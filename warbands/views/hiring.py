"""Hiring (the dialog and its price preview) and a fighter or group leaving the roster."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from .. import services
from ..forms import HireForm
from ..models import Fighter, HenchmanGroup, SpecialRule, Warband
from ..presentation import fighter_type_choices
from ._common import confirmation, owned_warband, perform


def _hire_quote(warband: Warband, form: HireForm) -> dict:
    """Cost and what remains, from the form's current values (nothing is written)."""
    fighter_type = form.cleaned_data.get("fighter_type") if form.is_valid() else None
    if fighter_type is None:
        fighter_type = (
            form.fields["fighter_type"]
            .queryset.filter(pk=form.data.get("fighter_type") or 0)
            .first()
        )
    if fighter_type is None:
        return {}
    try:
        count = max(1, int(form.data.get("count") or 1))
    except ValueError:
        count = 1
    if fighter_type.is_hero:
        count = 1
    group = form.fields["group"].queryset.filter(pk=form.data.get("group") or 0).first()
    cost = services.fighter_hire_price(fighter_type=fighter_type, count=count, group=group)
    return {
        "fighter_type": fighter_type,
        "count": count,
        "cost": cost,
        "treasury": warband.treasury,
        "remaining": warband.treasury - cost,
    }


@login_required
def warband_hire(request, pk):
    warband = owned_warband(request, pk)
    if request.method == "POST":
        form = HireForm(request.POST, warband=warband)
        if not form.is_valid():
            messages.error(request, _("Choose a type and give a name."))
            return redirect("warband-sheet", pk=pk)
        data = form.cleaned_data
        return perform(
            request,
            pk,
            lambda: services.fighter_hire(
                warband=warband,
                fighter_type=data["fighter_type"],
                name=data["name"],
                count=data["count"] or 1,
                group=data["group"],
                expected_version=data["version"],
            ),
            _("Hired %(name)s.") % {"name": data["name"]},
        )
    form = HireForm(initial={"version": warband.version, "count": 1}, warband=warband)
    form.offer_no_second_leader()
    types = list(form.fields["fighter_type"].queryset)
    slugs = {slug for fighter_type in types for slug in fighter_type.special_rules or []}
    choices = fighter_type_choices(
        types, hired=form.hired, rules=SpecialRule.objects.filter(slug__in=slugs)
    )
    return render(
        request,
        "warbands/_hire_dialog.html",
        {"warband": warband, "form": form, "choices": choices},
    )


@login_required
@require_GET
def warband_hire_preview(request, pk):
    warband = owned_warband(request, pk)
    form = HireForm(request.GET, warband=warband)
    return render(request, "warbands/_quote.html", {"quote": _hire_quote(warband, form)})


@login_required
@require_POST
def warband_fighter_action(request, pk, fighter_pk, operation):
    warband = owned_warband(request, pk)
    fighter = get_object_or_404(
        Fighter.objects.select_related("group"), pk=fighter_pk, warband=warband
    )
    version = request.POST.get("version") or None
    asking = _confirm_leaving(request, warband, fighter, operation)
    if asking is not None:
        return asking
    actions = {
        "dismiss": (services.fighter_dismiss, _("%(name)s dismissed.")),
        "retire": (services.fighter_retire, _("%(name)s retired.")),
        "lead": (services.fighter_make_leader, _("%(name)s now leads the warband.")),
    }
    if operation not in actions:
        raise Http404
    service, message = actions[operation]
    return perform(
        request,
        pk,
        lambda: service(fighter=fighter, expected_version=version),
        message % {"name": fighter.name},
    )


def _confirm_leaving(request, warband: Warband, fighter: Fighter, operation: str):
    names = {"name": fighter.name}
    if operation == "dismiss" and fighter.group_id is not None:
        question = _(
            "Remove %(name)s from %(group)s? He leaves the warband for good: his hire cost is "
            "not refunded; his share of the equipment goes to the stash."
        ) % {**names, "group": fighter.group.name}
        label = _("Dismiss")
    elif operation == "dismiss":
        question = (
            _(
                "Dismiss %(name)s? He leaves the warband for good: his hire cost is not refunded; "
                "his equipment goes to the stash."
            )
            % names
        )
        label = _("Dismiss")
    elif operation == "retire":
        question = (
            _(
                "Retire %(name)s? He leaves the roster for good (he stays on the record as "
                "retired); his equipment goes to the stash."
            )
            % names
        )
        label = _("Retire")
    else:
        return None
    return confirmation(request, warband, question=question, label=label)


@login_required
@require_POST
def warband_group_dismiss(request, pk, group_pk):
    warband = owned_warband(request, pk)
    group = get_object_or_404(HenchmanGroup, pk=group_pk, warband=warband)
    size = group.members.filter(status__in=Fighter.IN_ROSTER).count()
    asking = confirmation(
        request,
        warband,
        question=ngettext(
            "Dismiss the whole group %(name)s (%(counter)s member)? The hire cost is not "
            "refunded; the equipment goes to the stash.",
            "Dismiss the whole group %(name)s (%(counter)s members)? The hire cost is not "
            "refunded; the equipment goes to the stash.",
            size,
        )
        % {"name": group.name, "counter": size},
        label=_("Dismiss the group"),
    )
    if asking is not None:
        return asking
    return perform(
        request,
        pk,
        lambda: services.group_dismiss(
            group=group, expected_version=request.POST.get("version") or None
        ),
        _("%(name)s dismissed.") % {"name": group.name},
    )
