"""Mis bandas, create, the Hoja de Control de Banda (cached per version), edit, delete, ledger."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from annuminas.api.errors import Conflict

from .. import services
from ..forms import ImportForm, WarbandCreateForm, WarbandEditForm
from ..models import Warband
from ..selectors import warband_ledger, warbands_for_user
from ._common import confirmation, owned_sheet, owned_warband, perform


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
        warband = owned_sheet(request, pk)
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
    warband = owned_warband(request, pk)
    form = WarbandEditForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the name and notes."))
        return redirect("warband-sheet", pk=pk)
    return perform(
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
    warband = owned_warband(request, pk)
    asking = confirmation(
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


@login_required
def warband_ledger_page(request, pk):
    warband = owned_warband(request, pk)
    return render(
        request,
        "warbands/ledger.html",
        {"warband": warband, "entries": warband_ledger(warband=warband)[:500]},
    )
