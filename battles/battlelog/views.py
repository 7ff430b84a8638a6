"""The phone page at the table: set up, then the live tracker (htmx polls ``live/`` every 2 s).

Forms post plainly and redirect (the page works without JavaScript); each form carries a
``client_id`` made when it was rendered, so a double tap or a resent form writes one entry.
What the page shows in words comes from :mod:`.presenters`, the forms are read by
:mod:`.forms`; the rules are the engine's.
"""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from annuminas.confirmation import confirmation
from annuminas.converters import parse_id
from annuminas.errors import Conflict
from battles.common import access
from battles.models import Battle, BattleLogEntry, BattleSetup
from rules.engine.tracker import FLEEING, STATUSES

from . import forms, prebattle, services
from .api import prebattle_data
from .presenters import (
    ATTACK_OPTIONS,
    LEGACY_MODIFIERS,
    SHOOTING_MODIFIERS,
    SITUATIONS,
    Names,
    combat_rows,
    correctable,
    describe,
    fighter_rows,
    label,
    label_check,
    weapons,
)

__all__ = ["Names", "battle_log_live", "battle_log_page", "describe"]

LIVE_ENTRIES = 30
FORMS = (
    "attack",
    "charge",
    "disengage",
    "status",
    "note",
    "finish",
    "correction",
    "challenge",
    "fear",
    "all_alone",
    "charged",
)


def _battle(request: HttpRequest, pk: int) -> Battle:
    return get_object_or_404(
        access.visible_battles(request.user)
        .select_related("campaign")
        .prefetch_related("participants__warband"),
        pk=pk,
    )


def _live_context(battle: Battle, user, state=None) -> dict[str, Any]:
    """What the live part shows; ``state`` is the battle's state read once by a caller that
    needs it too."""
    state = state if state is not None else services.log_state(battle)
    names = Names.of(state)
    entries = list(
        BattleLogEntry.objects.filter(battle=battle, seq__gt=max(0, state.last_seq - LIVE_ENTRIES))
        .select_related("author")
        .order_by("-seq")
    )
    data = state.to_dict()
    for check in data["checks_due"]:
        label_check(check, names)
    sides = fighter_rows(state, names)
    return {
        "battle": battle,
        "state": data,
        "sides_now": sides,
        "combats": combat_rows(state, names),
        "heroes": [
            {"id": f["id"], "name": f["name"], "side": side["warband"]}
            for side in sides
            for f in side["fighters"]
            if f["hero"] and f["status"] == "in_play"
        ],
        "next_side_name": names.side((data["next"] or {}).get("side")),
        "side_name": names.side(data["side_to_move"]),
        "lines": [
            {
                "seq": e.seq,
                "text": describe(e, names),
                "author": e.author,
                "corrected": e.seq in state.corrected,
            }
            for e in entries
        ],
        "correctable": correctable(entries, state, names),
        # The next turn waits for what the rules require now: the page offers it only then.
        "required_due": any(check["required"] for check in data["checks_due"]),
        "can_write": access.can_report(user, battle) and battle.status == Battle.Status.SCHEDULED,
        "client_id": uuid.uuid4(),
    }


def _post_entry(request: HttpRequest, battle: Battle) -> None:
    form = request.POST
    op = form.get("op", "")
    client_id = form.get("client_id", "")
    try:
        client_id = uuid.UUID(client_id)
    except ValueError as error:
        raise ValidationError(_("The form is too old: reload the page.")) from error
    if op in ("setup", "lineup"):
        _post_prebattle(request, battle, op, client_id)
        return
    payloads = forms.payloads(form)
    if op not in payloads:
        raise Http404
    services.battle_log_append(
        battle=battle,
        by=request.user,
        kind=op,
        payload=payloads[op](),
        client_id=client_id,
        faces=forms.faces(form) or None,
    )


def _post_prebattle(request: HttpRequest, battle: Battle, op: str, client_id: uuid.UUID) -> None:
    """Each player posts the checkboxes of his own warband (an organiser, of any)."""
    form = request.POST
    chosen = {
        p.warband_id: [int(f) for f in form.getlist(f"w{p.warband_id}") if f.isdigit()]
        for p in battle.participants.all()
        if f"w{p.warband_id}" in form or form.get(f"pick{p.warband_id}")
    }
    if op == "lineup":
        for warband_id, fighters in chosen.items():
            lineup = prebattle.battle_lineup_set(
                battle=battle, by=request.user, warband_id=warband_id, fighters=fighters
            )
            count = len(lineup.fighters)
            messages.success(
                request,
                ngettext(
                    "Lineup saved: %(count)s warrior.", "Lineup saved: %(count)s warriors.", count
                )
                % {"count": count},
            )
        return
    prebattle.battle_log_setup(
        battle=battle,
        by=request.user,
        client_id=client_id,
        fighters=chosen,
        scenario=form.get("scenario", ""),
        first=parse_id(form.get("first")),
        attacker=parse_id(form.get("attacker")),
    )


@require_http_methods(["GET", "POST"])
def battle_log_page(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle(request, pk)
    if request.method == "POST":
        return _post_page(request, battle)
    setup = BattleSetup.objects.filter(battle=battle).first()
    if setup is None:
        return render(request, "battles/log/setup.html", _setup_context(request, battle))
    state = services.log_state(battle, setup)  # read once for the live part and the forms
    context = _live_context(battle, request.user, state)
    context.update(_forms_context(state, setup.data["sides"]))
    return render(request, "battles/log/tracker.html", context)


def _forms_context(state, sides: list[dict[str, Any]]) -> dict[str, Any]:
    """What the forms offer: who may act, against whom, with what."""
    order = [side["warband"] for side in sides]
    attacking = state.side if state.side in order else order[0]
    return {
        "sides": sides,
        # The attack form starts on a warrior of the side to move, against one of another side.
        "attacking_side": attacking,
        "defending_side": next((w for w in order if w != attacking), attacking),
        "weapons": weapons(sides),
        "strict": state.setup.strict,
        "attack_options": ATTACK_OPTIONS.items(),
        "shooting_modifiers": (
            SHOOTING_MODIFIERS if state.setup.strict else LEGACY_MODIFIERS
        ).items(),
        "statuses": [(code, label(code)) for code in STATUSES],
        "situations": SITUATIONS.items(),
        "fear_causers": [f for f in state.fighters.values() if state.causes_fear(f)],
        "fleeing": [f for f in state.fighters.values() if f.status == FLEEING],
        "engaged": [f for f in state.fighters.values() if state.engaged(f.id)],
        "form_ids": {name: uuid.uuid4() for name in FORMS},
    }


SETUP_CHOICES = ("scenario", "first", "attacker")


def _table_url(request: HttpRequest, battle: Battle) -> str:
    """The table's page; after a lineup is posted the setup's other choices, not yet sent, come
    back chosen (they travel in the query string)."""
    url = reverse("battle-log", kwargs={"pk": battle.pk})
    if request.POST.get("op") != "lineup":
        return url
    kept = {key: request.POST[key] for key in SETUP_CHOICES if request.POST.get(key)}
    return f"{url}?{urlencode(kept)}" if kept else url


def _post_page(request: HttpRequest, battle: Battle) -> HttpResponse:
    """One form of the table's page: written, or refused with the reasons as messages. Finishing
    the battle sends its report to the opponent: it is asked first, and then shows the report."""
    if not request.user.is_authenticated:
        raise PermissionDenied
    finishing = request.POST.get("op") == "finish"
    if finishing:
        asking = confirmation(
            request,
            question=_(
                "Finish the battle? Its report (the winner, who went out of action) goes to "
                "your opponent to confirm, and nothing more can be logged."
            ),
            label=_("Finish and send the report"),
            back_url=reverse("battle-log", kwargs={"pk": battle.pk}),
            back_label=_("Back to the table"),
        )
        if asking is not None:
            return asking
    try:
        _post_entry(request, battle)
    except (ValidationError, Conflict, PermissionDenied) as error:
        if isinstance(error, ValidationError):
            for message in error.messages:
                messages.error(request, message)
        elif isinstance(error, PermissionDenied):
            messages.error(request, str(error) or _("You may not write in this log."))
        else:
            messages.error(request, str(error.detail))
        return redirect(_table_url(request, battle))
    if finishing:
        messages.success(
            request, _("The battle is finished: its report waits for your opponent to confirm.")
        )
        return redirect(battle.get_absolute_url())
    return redirect(_table_url(request, battle))


def _setup_context(request: HttpRequest, battle: Battle) -> dict[str, Any]:
    data = prebattle_data(battle, request.user)
    for warband in data["warbands"]:
        lineup = warband["lineup"]
        for fighter in warband["fighters"]:
            fighter["picked"] = lineup is None or fighter["id"] in lineup
    return {
        "battle": battle,
        "warbands": data["warbands"],
        "scenarios": data["scenarios"],
        "can_write": access.can_report(request.user, battle)
        and battle.status == Battle.Status.SCHEDULED,
        "is_organiser": access.is_organiser(request.user, battle.campaign),
        "client_id": uuid.uuid4(),
        "chosen": {
            "scenario": request.GET.get("scenario", ""),
            "first": parse_id(request.GET.get("first")),
            "attacker": parse_id(request.GET.get("attacker")),
        },
    }


@require_GET
def battle_log_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The part of the page that changes: state, checks due, the latest entries."""
    battle = _battle(request, pk)
    last = (
        BattleLogEntry.objects.filter(battle=battle)
        .order_by("-seq")
        .values_list("seq", flat=True)[:1]
    )
    if not last:
        raise Http404
    if request.GET.get("seen") == str(last[0]):
        return HttpResponse(status=204)  # nothing new: htmx keeps the page (and what is typed)
    return render(request, "battles/log/_live.html", _live_context(battle, request.user))
