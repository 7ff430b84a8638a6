"""Mis bandas, create, the Hoja de Control de Banda (cached per version: ``sheet_cache``), edit,
delete, ledger."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from annuminas.errors import Conflict

from .. import services
from ..forms import ImportForm, VersionedForm, WarbandCreateForm, WarbandEditForm
from ..models import PackVersion, Warband
from ..packs.services import may_read
from ..selectors import warband_ledger, warbands_for_user
from ..sheet_cache import (
    CSRF_STAND_IN,
    KEY_FIELDS,
    SHEET_CACHE_SECONDS,
    owner_body,
    page_key,
    personalise,
)
from ._common import confirmation, owned_warband, perform, perform_confirmed


@login_required
def warband_list(request):
    return render(
        request,
        "warbands/list.html",
        {"warbands": warbands_for_user(user=request.user), "import_form": ImportForm()},
    )


def _pack_version(request):
    """The published pack version asked for (``?pack=<id>``), when the user may read it."""
    raw = (request.POST.get("pack") or request.GET.get("pack") or "").strip()
    if not raw:
        return None
    version = (
        PackVersion.objects.select_related("pack")
        .filter(pk=int(raw) if raw.isdigit() and len(raw) < 12 else 0, state="published")
        .first()
    )
    if version is None or not may_read(version.pack, request.user):
        raise Http404
    return version


@login_required
def warband_create(request):
    form = WarbandCreateForm(request.POST or None, pack_version=_pack_version(request))
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


def _render_page(request, head: Warband) -> str:
    """The whole page around the cached body, with the body's stand-in for the CSRF token."""
    try:
        body = owner_body(head, owner=request.user)
    except Warband.DoesNotExist as exc:
        raise Http404 from exc
    return render_to_string(
        "warbands/sheet.html",
        {"warband": head, "sheet_body": mark_safe(body), "csrf_token": CSRF_STAND_IN},  # noqa: S308 - rendered by our template
        request=request,
    )


@login_required
@require_GET
def warband_sheet_page(request, pk):
    """The sheet: the whole page is cached for its owner per version and language; the
    visitor's CSRF token goes in on the way out. A page with messages to show, or a query
    string (the language switcher sends the path back), has its shell rendered around the
    cached body instead."""
    head = get_object_or_404(
        Warband.objects.only(*KEY_FIELDS, "name", "owner_id"), pk=pk, owner=request.user
    )
    if request.GET or len(get_messages(request)):
        return HttpResponse(personalise(_render_page(request, head), request))
    key = page_key(head, get_language(), request.user)
    page = cache.get(key)
    if page is None:
        page = _render_page(request, head)
        cache.set(key, page, SHEET_CACHE_SECONDS)
    return HttpResponse(personalise(page, request))


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


# The sharing buttons on the sheet: what each posts, what it changes, what it says after.
SHARING_ACTIONS = {
    "on": (
        {"shared": True},
        gettext_lazy("Sharing is on: anyone with the link sees a read-only copy."),
    ),
    "off": ({"shared": False}, gettext_lazy("Sharing is off: the link no longer works.")),
    "rotate": (
        {"rotate_share_link": True},
        gettext_lazy("The share link was replaced: the old one no longer works."),
    ),
    "notes-on": ({"share_notes": True}, gettext_lazy("The shared copy shows the notes.")),
    "notes-off": ({"share_notes": False}, gettext_lazy("The notes are private again.")),
}


@login_required
@require_POST
def warband_sharing(request, pk):
    """Turn the share link on or off, replace it, or show or hide the notes on it."""
    warband = owned_warband(request, pk)
    form = VersionedForm(request.POST)
    chosen = SHARING_ACTIONS.get(request.POST.get("action", ""))
    if chosen is None or not form.is_valid():
        messages.error(request, _("Choose what to do with the share link."))
        return redirect("warband-sheet", pk=pk)
    fields, success = chosen
    return perform(
        request,
        pk,
        lambda: services.warband_update(
            warband=warband, expected_version=form.cleaned_data["version"], **fields
        ),
        str(success),
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
@require_POST
def warband_undo(request, pk):
    """Undo the last roster change (asks first, like every action that takes something away)."""
    warband = get_object_or_404(
        Warband.objects.select_related("warband_type", "undo_point"), pk=pk, owner=request.user
    )
    point = services.undo_offer(warband)
    if point is None:
        messages.error(request, _("There is nothing to undo."))
        return redirect("warband-sheet", pk=pk)
    change = services.undo_point_text(point)
    return perform_confirmed(
        request,
        warband,
        question=_("Undo %(change)s?") % {"change": change},
        label=_("Undo"),
        action=lambda: services.warband_undo(
            warband=warband, expected_version=request.POST.get("version") or None
        ),
        success=_("Undone: %(change)s.") % {"change": change},
    )


@login_required
def warband_ledger_page(request, pk):
    warband = owned_warband(request, pk)
    return render(
        request,
        "warbands/ledger.html",
        {"warband": warband, "entries": warband_ledger(warband=warband)[:500]},
    )
