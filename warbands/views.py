"""Pages: Mis bandas, create, the Hoja de Control de Banda (with hire and buy dialogs), print,
PDF, ledger, export/import and the read-only share link. Thin: services write, selectors read."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from annuminas.api.errors import Conflict

from . import pdf, services
from .forms import (
    AssignForm,
    BuyForm,
    HireForm,
    ImportForm,
    WarbandCreateForm,
    WarbandEditForm,
)
from .import_format import IMPORT_MAX_BYTES, import_file_read
from .models import (
    EquipmentItem,
    EquipmentListEntry,
    Fighter,
    HenchmanGroup,
    SpecialRule,
    Warband,
)
from .presentation import decorate_sheet, fighter_type_choices
from .progression import pack_setting
from .selectors import (
    warband_by_share_token,
    warband_ledger,
    warband_sheet,
    warbands_for_user,
)


def _own(request, pk) -> Warband:
    return get_object_or_404(
        Warband.objects.select_related("warband_type"), pk=pk, owner=request.user
    )


def _sheet(request, pk) -> Warband:
    try:
        return decorate_sheet(warband_sheet(warband_id=pk, owner=request.user))
    except Warband.DoesNotExist as exc:
        raise Http404 from exc


def _version(form) -> int | None:
    return form.cleaned_data.get("version") if form.is_valid() else None


def _error_text(exc: ValidationError) -> str:
    """A service's refusal as one line; a field's messages say which field."""
    if hasattr(exc, "error_dict"):
        return " ".join(
            message if field in ("__all__", "name", "notes") else f"{field}: {message}"
            for field, errors in exc.error_dict.items()
            for error in errors
            for message in error.messages
        )
    return " ".join(exc.messages)


def _perform(request, warband_id: int, action, success: str):
    """Run one service; its refusal becomes a message on the sheet."""
    try:
        action()
    except Conflict as exc:
        messages.error(request, str(exc.detail))
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, success)
    return redirect("warband-sheet", pk=warband_id)


def _confirmation(request, warband: Warband, *, question: str, label: str):
    """The no-JavaScript step before a destructive action: a POST without ``confirmed`` gets a
    page that asks, whose form posts again with it (htmx asks with ``hx-confirm`` and sends it).
    Returns None once confirmed."""
    if request.POST.get("confirmed") == "1":
        return None
    return render(
        request,
        "warbands/confirm.html",
        {
            "warband": warband,
            "question": question,
            "label": label,
            "action": request.path,
            "version": request.POST.get("version") or "",
        },
    )


@login_required
def warband_list(request):
    return render(
        request,
        "warbands/list.html",
        {"warbands": warbands_for_user(user=request.user), "import_form": ImportForm()},
    )


@login_required
def warband_create(request):
    form = WarbandCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            warband = services.warband_create(owner=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Warband created: now hire its leader."))
            return redirect("warband-sheet", pk=warband.pk)
    types = form.fields["warband_type"].queryset.select_related("race")
    return render(request, "warbands/create.html", {"form": form, "types": types})


SHEET_CACHE_SECONDS = 600


def _sheet_cache_key(request, warband: Warband) -> str:
    """The rendered sheet is cached per warband *version* (bumped by every roster write), per
    language and host, and per CSRF secret (its forms carry the visitor's token)."""
    get_token(request)  # make sure the visitor has a CSRF secret before keying on it
    secret = request.META.get("CSRF_COOKIE") or ""
    digest = hashlib.sha256(f"{secret}|{request.get_host()}".encode()).hexdigest()[:20]
    return f"sheet:{warband.pk}:{warband.version}:{get_language()}:{digest}"


@login_required
@require_GET
def warband_sheet_page(request, pk):
    head = get_object_or_404(
        Warband.objects.only("pk", "name", "version", "owner_id"), pk=pk, owner=request.user
    )
    key = _sheet_cache_key(request, head)
    body = cache.get(key)
    if body is None:
        warband = _sheet(request, pk)
        edit_form = WarbandEditForm(
            initial={"name": warband.name, "notes": warband.notes, "version": warband.version}
        )
        body = render_to_string(
            "warbands/_sheet_body.html",
            {"warband": warband, "editable": True, "edit_form": edit_form},
            request=request,
        )
        cache.set(key, body, SHEET_CACHE_SECONDS)
    return render(request, "warbands/sheet.html", {"warband": head, "sheet_body": body})


@login_required
@require_POST
def warband_edit(request, pk):
    warband = _own(request, pk)
    form = WarbandEditForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the name and notes."))
        return redirect("warband-sheet", pk=pk)
    return _perform(
        request,
        pk,
        lambda: services.warband_update(
            warband=warband,
            expected_version=form.cleaned_data["version"],
            name=form.cleaned_data["name"],
            notes=form.cleaned_data["notes"],
        ),
        _("Saved."),
    )


@login_required
@require_POST
def warband_delete(request, pk):
    warband = _own(request, pk)
    asking = _confirmation(
        request,
        warband,
        question=_("Delete %(name)s for good? Its roster and its ledger are lost.")
        % {"name": warband.name},
        label=_("Delete warband"),
    )
    if asking is not None:
        return asking
    try:
        services.warband_delete(warband=warband)
    except Conflict as exc:
        messages.error(request, str(exc.detail))
        return redirect("warband-sheet", pk=pk)
    messages.success(request, _("Warband deleted."))
    return redirect("warband-list")


# --- hire ----------------------------------------------------------------------------------


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
    warband = _own(request, pk)
    if request.method == "POST":
        form = HireForm(request.POST, warband=warband)
        if not form.is_valid():
            messages.error(request, _("Choose a type and give a name."))
            return redirect("warband-sheet", pk=pk)
        data = form.cleaned_data
        return _perform(
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
    warband = _own(request, pk)
    form = HireForm(request.GET, warband=warband)
    return render(request, "warbands/_quote.html", {"quote": _hire_quote(warband, form)})


# --- buy -----------------------------------------------------------------------------------


def _holder(request, warband: Warband):
    """The hero or group a purchase is for (None, None: the stash)."""
    fighter_id, group_id = request.GET.get("fighter"), request.GET.get("group")
    if request.method == "POST":
        fighter_id = request.POST.get("fighter") or fighter_id
        group_id = request.POST.get("group") or group_id
    if fighter_id:
        fighter = get_object_or_404(
            Fighter.objects.select_related("fighter_type"), pk=fighter_id, warband=warband
        )
        if fighter.group_id:
            return None, fighter.group
        return fighter, None
    if group_id:
        return None, get_object_or_404(
            HenchmanGroup.objects.select_related("fighter_type"), pk=group_id, warband=warband
        )
    return None, None


def _entries(warband: Warband, fighter, group):
    holder = fighter or group
    entries = EquipmentListEntry.objects.select_related("equipment").order_by(
        "equipment__kind", "equipment__name"
    )
    if holder is not None:
        return entries.filter(equipment_list_id=holder.fighter_type.equipment_list_id or 0)
    return entries.filter(
        equipment_list__in=warband.warband_type.fighter_types.values("equipment_list")
    )


def _buy_context(warband, fighter, group, form) -> dict:
    """Each item the holder may buy, with what it does, its price, and why it is free; or why
    nothing can be bought."""
    holder = fighter or group
    entries = list(form.fields["entry"].queryset)
    copies = group.members.filter(status__in=Fighter.IN_ROSTER).count() if group is not None else 1
    first_free = (
        holder is not None
        and pack_setting(warband.warband_type.pack.settings, "free_dagger", True)
        and not holder.equipment.filter(equipment__rules__first_free=True).exists()
    )
    seen, options = set(), []
    for entry in entries:
        if entry.equipment_id in seen:
            continue
        seen.add(entry.equipment_id)
        free = bool(first_free and entry.equipment.rules.get("first_free"))
        options.append(
            {
                "entry": entry,
                "item": entry.equipment,
                "unit": 0 if free else entry.price,
                "total": 0 if free else entry.price * copies,
                "free": free,
            }
        )
    why_none = ""
    if not options and holder is not None:
        if holder.fighter_type.equipment_list_id is None:
            why_none = _("%(fighter)s cannot carry equipment: his type has no equipment list.") % {
                "fighter": holder.fighter_type.name
            }
        else:
            why_none = _("The equipment list of %(fighter)s is empty.") % {
                "fighter": holder.fighter_type.name
            }
    return {
        "warband": warband,
        "fighter": fighter,
        "group": group,
        "form": form,
        "options": options,
        "copies": copies,
        "why_none": why_none,
    }


@login_required
def warband_buy(request, pk):
    warband = _own(request, pk)
    fighter, group = _holder(request, warband)
    entries = _entries(warband, fighter, group)
    if request.method == "POST":
        form = BuyForm(request.POST, entries=entries)
        if not form.is_valid():
            messages.error(request, _("Choose an item from the list."))
            return redirect("warband-sheet", pk=pk)
        entry = form.cleaned_data["entry"]
        return _perform(
            request,
            pk,
            lambda: services.equipment_buy(
                warband=warband,
                equipment=entry.equipment,
                fighter=fighter,
                group=group,
                expected_version=form.cleaned_data["version"],
            ),
            _("Bought %(item)s.") % {"item": entry.equipment.name},
        )
    form = BuyForm(initial={"version": warband.version}, entries=entries)
    return render(request, "warbands/_buy_dialog.html", _buy_context(warband, fighter, group, form))


@login_required
@require_GET
def warband_buy_preview(request, pk):
    warband = _own(request, pk)
    fighter, group = _holder(request, warband)
    entry = _entries(warband, fighter, group).filter(pk=request.GET.get("entry") or 0).first()
    quote = {}
    if entry is not None:
        try:
            unit, total, _entry = services.equipment_price(
                warband=warband, equipment=entry.equipment, fighter=fighter, group=group
            )
        except ValidationError as exc:
            quote = {"problem": " ".join(exc.messages)}
        else:
            quote = {
                "item": entry.equipment,
                "cost": total,
                "treasury": warband.treasury,
                "remaining": warband.treasury - total,
                "rare": entry.is_rare,
            }
    return render(request, "warbands/_quote.html", {"quote": quote})


# --- items, fighters ------------------------------------------------------------------------


@login_required
def warband_item_action(request, pk, item_pk, operation):
    warband = _own(request, pk)
    item = get_object_or_404(
        EquipmentItem.objects.select_related("equipment"), pk=item_pk, warband=warband
    )
    if operation == "assign" and request.method == "GET":
        form = AssignForm(initial={"version": warband.version}, targets=_targets(warband))
        return render(
            request,
            "warbands/_assign_dialog.html",
            {"warband": warband, "item": item, "form": form},
        )
    if request.method != "POST":
        raise Http404
    version = request.POST.get("version") or None
    name = item.equipment.name
    if operation == "sell":
        value = services.item_sale_value(item)
        asking = _confirmation(
            request,
            warband,
            question=_("Sell %(item)s for %(value)s co? It leaves the warband.")
            % {"item": name, "value": value},
            label=_("sell (%(value)s co)") % {"value": value},
        )
        if asking is not None:
            return asking
        return _perform(
            request,
            pk,
            lambda: services.equipment_sell(item=item, expected_version=version),
            _("Sold %(item)s.") % {"item": name},
        )
    if operation == "stash":
        return _perform(
            request,
            pk,
            lambda: services.equipment_stash(item=item, expected_version=version),
            _("%(item)s is in the stash.") % {"item": name},
        )
    if operation == "assign":
        form = AssignForm(request.POST, targets=_targets(warband))
        if not form.is_valid():
            messages.error(request, _("Choose who receives it."))
            return redirect("warband-sheet", pk=pk)
        kind, _sep, target_pk = form.cleaned_data["target"].partition("-")
        target = (
            {"fighter": get_object_or_404(Fighter, pk=target_pk, warband=warband)}
            if kind == "f"
            else {"group": get_object_or_404(HenchmanGroup, pk=target_pk, warband=warband)}
        )
        return _perform(
            request,
            pk,
            lambda: services.equipment_assign(
                item=item, expected_version=form.cleaned_data["version"], **target
            ),
            _("%(item)s handed over.") % {"item": name},
        )
    raise Http404


def _targets(warband: Warband) -> list[tuple[str, str]]:
    heroes = warband.fighters.filter(group=None, status__in=Fighter.IN_ROSTER).order_by("pk")
    groups = warband.groups.order_by("pk")
    return [(f"f-{f.pk}", f.name) for f in heroes] + [(f"g-{g.pk}", g.name) for g in groups]


@login_required
@require_POST
def warband_fighter_action(request, pk, fighter_pk, operation):
    warband = _own(request, pk)
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
    return _perform(
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
    return _confirmation(request, warband, question=question, label=label)


@login_required
@require_POST
def warband_group_dismiss(request, pk, group_pk):
    warband = _own(request, pk)
    group = get_object_or_404(HenchmanGroup, pk=group_pk, warband=warband)
    size = group.members.filter(status__in=Fighter.IN_ROSTER).count()
    asking = _confirmation(
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
    return _perform(
        request,
        pk,
        lambda: services.group_dismiss(
            group=group, expected_version=request.POST.get("version") or None
        ),
        _("%(name)s dismissed.") % {"name": group.name},
    )


# --- ledger, print, PDF, export/import, share -----------------------------------------------


@login_required
def warband_ledger_page(request, pk):
    warband = _own(request, pk)
    return render(
        request,
        "warbands/ledger.html",
        {"warband": warband, "entries": warband_ledger(warband=warband)[:500]},
    )


@login_required
def warband_print(request, pk):
    return render(request, "warbands/print.html", {"warband": _sheet(request, pk)})


def _pdf_head(request, pk) -> Warband:
    return get_object_or_404(
        Warband.objects.only("pk", "name", "version", "owner_id"), pk=pk, owner=request.user
    )


def _pdf_status_context(warband: Warband, state: str) -> dict:
    return {"warband": warband, "state": state, "working": state in (pdf.QUEUED, pdf.RENDERING)}


@login_required
@require_GET
def warband_pdf(request, pk):
    """The PDF when it is ready; else it is asked for and a page shows its progress (202)."""
    warband = _pdf_head(request, pk)
    ids = {"warband_id": warband.pk, "version": warband.version, "language": get_language()}
    state = pdf.warband_pdf_request(**ids)
    document = pdf.warband_pdf_stored(**ids) if state == pdf.DONE else None
    if document is None:
        return render(request, "warbands/pdf.html", _pdf_status_context(warband, state), status=202)
    response = HttpResponse(document, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="banda-{warband.pk}.pdf"'
    return response


@login_required
@require_GET
def warband_pdf_status(request, pk):
    """The progress fragment the PDF page polls (asks again if a lost render expired)."""
    warband = _pdf_head(request, pk)
    ids = {"warband_id": warband.pk, "version": warband.version, "language": get_language()}
    return render(
        request,
        "warbands/_pdf_status.html",
        _pdf_status_context(warband, pdf.warband_pdf_request(**ids)),
    )


@login_required
def warband_export(request, pk):
    warband = _own(request, pk)
    response = JsonResponse(
        services.warband_export(warband=warband),
        json_dumps_params={"ensure_ascii": False, "indent": 2},
    )
    response["Content-Disposition"] = f'attachment; filename="banda-{warband.pk}.json"'
    return response


@login_required
@require_POST
def warband_import(request):
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a file to import."))
        return redirect("warband-list")
    upload = form.cleaned_data["file"]
    try:
        # Read one byte past the limit: enough to tell a file that is too big.
        data = import_file_read(upload.read(IMPORT_MAX_BYTES + 1))
        warband = services.warband_import(owner=request.user, data=data)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect("warband-list")
    messages.success(request, _("Warband imported."))
    return redirect("warband-sheet", pk=warband.pk)


def warband_share(request, token):
    try:
        warband = decorate_sheet(warband_by_share_token(token=token))
    except Warband.DoesNotExist as exc:
        raise Http404 from exc
    return render(
        request,
        "warbands/share.html",
        {
            "warband": warband,
            "editable": False,
            "share_url": reverse("warband-share", args=[token]),
        },
    )
