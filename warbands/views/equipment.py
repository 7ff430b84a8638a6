"""Buying equipment (the dialog and its price preview) and selling, stashing or handing over
an item."""

from __future__ import annotations

import unicodedata

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from .. import services
from ..forms import AssignForm, BuyForm
from ..models import EquipmentItem, EquipmentListEntry, Fighter, HenchmanGroup, Warband
from ..presentation import sale_label, sale_question
from ..progression import pack_setting
from ._common import owned_warband, perform, perform_confirmed


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


def _sort_key(name: str) -> str:
    """A name as a reader alphabetises it: accents and case aside ("Élfico" among the E)."""
    return "".join(
        c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)
    ).casefold()


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
    # By kind, then by name in the reader's language (the query orders by the Spanish name).
    options.sort(key=lambda option: (option["item"].kind, _sort_key(option["item"].display_name)))
    why_none = ""
    if not options and holder is not None:
        if holder.fighter_type.equipment_list_id is None:
            why_none = _("%(fighter)s cannot carry equipment: his type has no equipment list.") % {
                "fighter": holder.fighter_type.display_name
            }
        else:
            why_none = _("The equipment list of %(fighter)s is empty.") % {
                "fighter": holder.fighter_type.display_name
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
    warband = owned_warband(request, pk)
    fighter, group = _holder(request, warband)
    entries = _entries(warband, fighter, group)
    if request.method == "POST":
        form = BuyForm(request.POST, entries=entries)
        if not form.is_valid():
            messages.error(request, _("Choose an item from the list."))
            return redirect("warband-sheet", pk=pk)
        entry = form.cleaned_data["entry"]
        return perform(
            request,
            pk,
            lambda: services.equipment_buy(
                warband=warband,
                equipment=entry.equipment,
                fighter=fighter,
                group=group,
                expected_version=form.cleaned_data["version"],
            ),
            _("Bought %(item)s.") % {"item": entry.equipment.display_name},
        )
    form = BuyForm(initial={"version": warband.version}, entries=entries)
    return render(request, "warbands/_buy_dialog.html", _buy_context(warband, fighter, group, form))


@login_required
@require_GET
def warband_buy_preview(request, pk):
    warband = owned_warband(request, pk)
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
    warband = owned_warband(request, pk)
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
    name = item.equipment.display_name
    if operation == "sell":
        value, copies = services.item_sale_value(item), services.item_copies(item)
        return perform_confirmed(
            request,
            warband,
            question=sale_question(name, value, copies),
            label=sale_label(value, copies),
            action=lambda: services.equipment_sell(item=item, expected_version=version),
            success=_("Sold %(item)s.") % {"item": name},
        )
    if operation == "stash":
        return perform(
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
        return perform(
            request,
            pk,
            lambda: services.equipment_assign(
                item=item, expected_version=form.cleaned_data["version"], **target
            ),
            _("%(item)s handed over.") % {"item": name},
        )
    raise Http404


def _targets(warband: Warband) -> list[tuple[str, str]]:
    heroes = (
        warband.fighters.filter(group=None, status__in=Fighter.IN_ROSTER)
        # A hired sword takes no equipment unless his pack gives him a list.
        .exclude(hired_sword__isnull=False, fighter_type__equipment_list__isnull=True)
        .order_by("pk")
    )
    groups = warband.groups.order_by("pk")
    return [(f"f-{f.pk}", f.name) for f in heroes] + [(f"g-{g.pk}", g.name) for g in groups]
