"""Hiring (the dialog and its price preview), hiring a hired sword (its own dialog, a full page
without JavaScript) and a fighter, hired sword or group leaving the roster."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from annuminas.errors import Conflict

from .. import services
from ..forms import HireForm, VersionedForm
from ..limits import NAME_MAX_LENGTH
from ..models import Fighter, HenchmanGroup, HiredSword, SpecialRule, Warband
from ..presentation import fighter_type_choices, profile_rows, rule_rows
from ..services.hired_swords import hired_sword_hire
from ._common import confirmation, owned_warband, perform, perform_confirmed

# The campaign states whose house rules bind a roster (battles' Campaign.State OPEN, RUNNING;
# this app imports no other app, the constraint itself lives in battles.campaigns.house_rules).
BINDING_CAMPAIGN_STATES = ("open", "running")
ALL_HIRED_SWORDS = "all"


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


class HiredSwordHireForm(VersionedForm):
    hired_sword = forms.ModelChoiceField(
        label=gettext_lazy("Hired sword"),
        queryset=HiredSword.objects.none(),
        error_messages={"required": gettext_lazy("Choose a hired sword.")},
    )
    name = forms.CharField(
        label=gettext_lazy("Name (empty: the sword's own)"),
        max_length=NAME_MAX_LENGTH,
        required=False,
    )

    def __init__(self, *args, warband: Warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["hired_sword"].queryset = _pack_swords(warband)


def _pack_swords(warband: Warband):
    """The hired swords of the warband's own content pack."""
    return HiredSword.objects.filter(
        fighter_type__warband_type__pack_id=warband.warband_type.pack_id,
        fighter_type__pack_version_id=warband.warband_type.pack_version_id,
    ).select_related("fighter_type")


def _forbidding_campaigns(warband: Warband) -> list[tuple[str, object]]:
    """(name, forbidden) of the campaigns whose house rules bind the roster and forbid swords."""
    rows = (
        warband.campaign_memberships.filter(
            active=True,
            campaign__state__in=BINDING_CAMPAIGN_STATES,
            campaign__archived=False,
        )
        .values_list("campaign__name", "campaign__hired_swords_forbidden")
        .distinct()
    )
    return [(name, forbidden) for name, forbidden in rows if forbidden]


def _unavailable_because(sword: HiredSword, warband: Warband, *, serving: int, campaigns) -> list:
    """Why the service would refuse this sword now, in words (it still decides on the hire)."""
    fighter_type = sword.fighter_type
    reasons = []
    if not sword.may_serve(warband.warband_type):
        reasons.append(
            _("It does not serve a %(type)s warband.") % {"type": warband.warband_type.display_name}
        )
    most = fighter_type.max_count or 1
    if serving >= most:
        reasons.append(
            ngettext(
                "Already hired: a warband may hire %(counter)s at most.",
                "Already hired: a warband may hire %(counter)s at most.",
                most,
            )
            % {"counter": most}
        )
    reasons.extend(
        _("The campaign %(campaign)s forbids it.") % {"campaign": name}
        for name, forbidden in campaigns
        if forbidden == ALL_HIRED_SWORDS or sword.slug in forbidden
    )
    if fighter_type.cost > warband.treasury:
        reasons.append(
            _("The treasury is short: the fee is %(fee)s co, the treasury holds %(treasury)s co.")
            % {"fee": fighter_type.cost, "treasury": warband.treasury}
        )
    return reasons


def hired_sword_rows(warband: Warband) -> list[dict]:
    """Every hired sword of the pack: its terms in words and why it cannot be hired now."""
    swords = list(
        _pack_swords(warband).prefetch_related(
            "allowed_warband_types",
            "excluded_warband_types",
            "equipment",
            "fighter_type__skill_lists",
        )
    )
    serving = dict(
        warband.fighters.filter(status__in=Fighter.IN_ROSTER, hired_sword__isnull=False)
        .order_by()
        .values_list("hired_sword")
        .annotate(n=Count("pk"))
    )
    campaigns = _forbidding_campaigns(warband)
    slugs = {slug for sword in swords for slug in sword.fighter_type.special_rules or []}
    rules = {rule.slug: rule for rule in SpecialRule.objects.filter(slug__in=slugs)}
    rows = []
    for sword in swords:
        fighter_type = sword.fighter_type
        reasons = _unavailable_because(
            sword, warband, serving=serving.get(sword.pk, 0), campaigns=campaigns
        )
        rows.append(
            {
                "sword": sword,
                "profile": profile_rows(fighter_type, fighter_type),
                "equipment": [item.display_name for item in sword.equipment.all()],
                "skill_lists": [skills.display_name for skills in fighter_type.skill_lists.all()],
                "rules": rule_rows(fighter_type.special_rules or [], rules),
                "unavailable": reasons,
            }
        )
    return rows


def _hired_sword_dialog(request, warband: Warband, form: HiredSwordHireForm) -> HttpResponse:
    """The dialog (htmx) or, without JavaScript, a page of its own in the sheet's frame."""
    partial = request.headers.get("HX-Request") == "true"
    context = {
        "warband": warband,
        "form": form,
        "swords": hired_sword_rows(warband),
        "page": not partial,
    }
    if partial:
        return render(request, "warbands/_hired_sword_dialog.html", context)
    body = render_to_string("warbands/_hired_sword_dialog.html", context, request=request)
    return render(request, "warbands/sheet.html", {"warband": warband, "sheet_body": body})


@login_required
@require_http_methods(["GET", "POST"])
def warband_hired_sword_hire(request, pk):
    """Hire a hired sword through ``hired_sword_hire``; a refusal is shown in the dialog."""
    warband = owned_warband(request, pk)
    form = HiredSwordHireForm(request.POST or None, warband=warband)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            hired = hired_sword_hire(
                warband=warband,
                hired_sword=data["hired_sword"],
                name=data["name"],
                expected_version=data["version"],
            )
        except Conflict as exc:
            form.add_error(None, str(exc.detail))
        except ValidationError as exc:
            form.add_error(None, " ".join(exc.messages))
        else:
            messages.success(request, _("Hired %(name)s.") % {"name": hired.name})
            sheet = reverse("warband-sheet", args=[pk])
            if request.headers.get("HX-Request") == "true":
                return HttpResponse(status=204, headers={"HX-Redirect": sheet})
            return redirect(sheet)
        warband.refresh_from_db()
    return _hired_sword_dialog(request, warband, form)


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
    left = _("%(name)s has left the warband.") if fighter.hired_sword_id else None
    actions = {
        "dismiss": (services.fighter_or_sword_dismiss, left or _("%(name)s dismissed.")),
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
    if operation == "dismiss" and fighter.hired_sword_id is not None:
        question = (
            _(
                "Let %(name)s go? The hired sword leaves the warband for good with his own "
                "equipment: his fee is not refunded; what the warband gave him goes to the stash."
            )
            % names
        )
        label = _("Let him go")
    elif operation == "dismiss" and fighter.group_id is not None:
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
    return perform_confirmed(
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
        action=lambda: services.group_dismiss(
            group=group, expected_version=request.POST.get("version") or None
        ),
        success=_("%(name)s dismissed.") % {"name": group.name},
    )
