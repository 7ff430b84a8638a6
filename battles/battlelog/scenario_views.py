"""The campaign's scenario list, edited by its organisers row by row (name, attacker and
defender) instead of as raw JSON in the campaign form's ``tables`` field."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from annuminas.errors import Conflict
from battles.common.pages import organised_campaign

from .scenarios import campaign_scenarios, campaign_scenarios_set, own_scenarios

BLANK_ROWS = 3
MAX_ROWS = 60  # the house rules allow 50 scenarios; a few more rows let them say so


def _rows(form) -> list[dict[str, Any]]:
    """The rows posted, in order, blank names left out."""
    count = min(int(form.get("rows", "0")) if form.get("rows", "").isdigit() else 0, MAX_ROWS)
    rows = []
    for index in range(count):
        name = " ".join(form.get(f"name-{index}", "").split())
        if name:
            rows.append({"name": name, "attacker_defender": bool(form.get(f"ad-{index}"))})
    return rows


@login_required
@require_http_methods(["GET", "POST"])
def campaign_scenarios_page(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = organised_campaign(request, slug)
    rows = own_scenarios(campaign)
    errors: list[str] = []
    if request.method == "POST":
        rows = [] if request.POST.get("op") == "default" else _rows(request.POST)
        try:
            campaign_scenarios_set(campaign=campaign, by=request.user, scenarios=rows)
        except ValidationError as error:
            errors = error.messages
        except Conflict as error:
            errors = [str(error.detail)]
        else:
            messages.success(request, _("Scenarios saved."))
            return redirect(campaign)
    shown = rows or campaign_scenarios(campaign)  # its pack's list, else the default one
    return render(
        request,
        "battles/log/scenarios.html",
        {
            "campaign": campaign,
            "rows": shown + [{"name": "", "attacker_defender": False}] * BLANK_ROWS,
            "row_count": len(shown) + BLANK_ROWS,
            "uses_default": not own_scenarios(campaign),
            "errors": errors,
        },
    )
