"""What every warband page shares: the owner's warband or sheet, running one service with its
refusal as a message, and the no-JavaScript confirmation step (and both, for an action that
takes something away)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from annuminas.errors import Conflict

from ..models import Warband
from ..presentation import decorate_sheet
from ..selectors import warband_sheet


def owned_warband(request, pk) -> Warband:
    return get_object_or_404(
        Warband.objects.select_related("warband_type"), pk=pk, owner=request.user
    )


def owned_sheet(request, pk) -> Warband:
    try:
        return decorate_sheet(warband_sheet(warband_id=pk, owner=request.user))
    except Warband.DoesNotExist as exc:
        raise Http404 from exc


def error_text(exc: ValidationError) -> str:
    """A service's refusal as one line; a field's messages say which field."""
    if hasattr(exc, "error_dict"):
        return " ".join(
            message if field in ("__all__", "name", "notes") else f"{field}: {message}"
            for field, errors in exc.error_dict.items()
            for error in errors
            for message in error.messages
        )
    return " ".join(exc.messages)


def perform(request, warband_id: int, action, success: str):
    """Run one service; its refusal becomes a message on the sheet."""
    try:
        action()
    except Conflict as exc:
        messages.error(request, str(exc.detail))
    except ValidationError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, success)
    return redirect("warband-sheet", pk=warband_id)


def confirmation(request, warband: Warband, *, question: str, label: str):
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


def perform_confirmed(
    request, warband: Warband, *, question: str, label: str, action, success: str
):
    """An action that takes something away: ask first (``confirmation``), then ``perform`` it."""
    asking = confirmation(request, warband, question=question, label=label)
    if asking is not None:
        return asking
    return perform(request, warband.pk, action, success)
