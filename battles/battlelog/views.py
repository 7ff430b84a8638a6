"""The phone page at the table: set up, then the live tracker (``static/js/table.js`` polls
``live/`` every 2 s and swaps the live part in, keeping what is typed and what is open).

Forms post plainly and redirect back to the part of the page they came from (``#fighter-12``;
the page works without JavaScript); with JavaScript they post in the background (header
``X-Table: 1``) and get the live part back, a refusal as JSON naming the field at fault, or a
question to ask before a decisive entry. Each form carries a ``client_id`` made when it was
rendered, so a double tap or a resent form writes one entry; an entry kept on the phone while
offline carries its own and the ``base_seq`` it was written against.
What the page shows in words comes from :mod:`.presenters`, the forms are read by
:mod:`.forms`; the rules are the engine's.
"""

from __future__ import annotations

import copy
import re
import uuid
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from annuminas.confirmation import confirmation, is_confirmed
from annuminas.converters import parse_id
from annuminas.errors import Conflict
from battles.common import access
from battles.models import Battle, BattleLogEntry, BattleSetup
from rules.engine.dice import Dice
from rules.engine.errors import RulesError
from rules.engine.tracker import STATUSES, TrackerError, dice_plan
from rules.engine.tracker.rolls import roll_entry

from . import forms, prebattle, rebind, services
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
    dice_lines,
    fighter_cards,
    label,
    label_check,
    plan_lines,
)

__all__ = ["Names", "battle_log_live", "battle_log_page", "describe"]

LIVE_ENTRIES = 30


def _battle(request: HttpRequest, pk: int) -> Battle:
    return get_object_or_404(
        access.visible_battles(request.user)
        .select_related("campaign")
        .prefetch_related("participants__warband"),
        pk=pk,
    )


def _live_context(battle: Battle, user, state=None, open_fighter=None) -> dict[str, Any]:
    """What the live part shows; ``state`` is the battle's state read once by a caller that
    needs it too. The cards carry no forms (a card's forms come when it is opened, see
    :func:`battle_log_card`) but the card of ``open_fighter``, shown open with its forms (the
    page without JavaScript, ``?fighter=12``)."""
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
    sides = fighter_cards(state, names)
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
                "dice": dice_lines(e, names),
            }
            for e in entries
        ],
        "due_count": len(data["checks_due"]),
        "correctable": correctable(entries, state, names),
        # The next turn waits for what the rules require now: the page offers it only then.
        "required_due": any(check["required"] for check in data["checks_due"]),
        "can_write": _can_write(user, battle),
        "client_id": uuid.uuid4(),
        "open_fighter": open_fighter,
        **_form_choices(state),
        **_report_pending(battle, user, state, names),
    }


def _can_write(user, battle: Battle) -> bool:
    return access.can_report(user, battle) and battle.status == Battle.Status.SCHEDULED


def _form_choices(state) -> dict[str, Any]:
    """The choices a card's forms offer, the same for every card."""
    return {
        "strict": state.setup.strict,
        "attack_options": ATTACK_OPTIONS.items(),
        "shooting_modifiers": (
            SHOOTING_MODIFIERS if state.setup.strict else LEGACY_MODIFIERS
        ).items(),
        "statuses": [(code, label(code)) for code in STATUSES],
        "situations": SITUATIONS.items(),
    }


def _report_pending(battle: Battle, user, state, names: Names) -> dict[str, Any]:
    """A battle the log reported, waiting for the opponent: the banner, and for its players the
    entry that finished it, which they may still strike out (the battle then goes on)."""
    if battle.status not in (Battle.Status.REPORTED, Battle.Status.DISPUTED):
        return {"report_pending": False}
    entry = None
    if access.is_participant(user, battle):
        entry = services.decisive_entry(battle, state)
    return {
        "report_pending": True,
        "decisive": entry and {"seq": entry.seq, "text": describe(entry, names).rstrip(".")},
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
    base_seq = form.get("base_seq", "")
    services.battle_log_append(
        battle=battle,
        by=request.user,
        kind=op,
        payload=payloads[op](),
        client_id=client_id,
        base_seq=int(base_seq) if base_seq.isdigit() else None,
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
    state = services.log_state(battle, setup)
    context = _live_context(battle, request.user, state, parse_id(request.GET.get("fighter")))
    return render(request, "battles/log/tracker.html", _page_context(context))


def _page_context(context: dict[str, Any]) -> dict[str, Any]:
    """The whole page's context around the live part's: the service worker's cache, which the
    page fills with the cards' forms for use without network."""
    return {**context, "sw_cache": SW_VERSION}


SETUP_CHOICES = ("scenario", "first", "attacker")


def _table_url(request: HttpRequest, battle: Battle) -> str:
    """The table's page; after a lineup is posted the setup's other choices, not yet sent, come
    back chosen (they travel in the query string)."""
    url = reverse("battle-log", kwargs={"pk": battle.pk})
    if request.POST.get("op") != "lineup":
        return url
    kept = {key: request.POST[key] for key in SETUP_CHOICES if request.POST.get(key)}
    return f"{url}?{urlencode(kept)}" if kept else url


ANCHOR = re.compile(r"^[a-z][a-z0-9-]{0,39}$")


def _anchor(request: HttpRequest) -> str:
    """The part of the page a form came from (``fighter-12``, ``checks``), to return to."""
    anchor = request.POST.get("anchor", "")
    return f"#{anchor}" if ANCHOR.match(anchor) else ""


CARD_ANCHOR = re.compile(r"^fighter-(\d{1,12})$")


def _card_of(request: HttpRequest) -> int | None:
    """The warrior whose card a form came from, if it came from a card."""
    found = CARD_ANCHOR.match(request.POST.get("anchor", ""))
    return int(found.group(1)) if found else None


def _back(request: HttpRequest, battle: Battle) -> str:
    """Where a posted form returns: its part of the page; a card's form, to its card open."""
    url = _table_url(request, battle)
    fighter = _card_of(request)
    if fighter is not None and "?" not in url:
        url = f"{url}?{urlencode({'fighter': fighter})}"
    return url + _anchor(request)


def _fetching(request: HttpRequest) -> bool:
    """Posted by the page's script (in the background): answered with data, not a redirect."""
    return request.headers.get("X-Table") == "1"


def _rout_fails(request: HttpRequest, battle: Battle) -> bool:
    """A rout test with the dice typed at the table that would rout the warband (and so end the
    battle): asked first, since a mistyped die would end it. Nothing is written."""
    form = request.POST
    faces = forms.faces(form)
    if form.get("op") != "check" or form.get("check") != "rout" or not faces:
        return False
    state = services.log_state(battle)
    if state is None:
        return False
    payload = forms.payloads(form)["check"]()
    try:
        result = roll_entry(copy.deepcopy(state), "check", payload, dice=Dice(faces=faces))
    except (TrackerError, RulesError, ValueError, KeyError, TypeError):
        return False  # the append refuses it and says why
    return result.get("outcome") == "routed"


def _decisive_question(request: HttpRequest, battle: Battle) -> tuple[str, str] | None:
    """The question and the button before an entry that ends the battle (or, once it is
    reported, strikes out the entry that ended it), else None."""
    op = request.POST.get("op")
    if op == "correction" and battle.status != Battle.Status.SCHEDULED:
        return (
            _(
                "Strike out entry #%(seq)s, which finished the battle? Its report is withdrawn "
                "and the battle goes on."
            )
            % {"seq": parse_id(request.POST.get("corrects")) or "?"},
            _("Strike it out and go on"),
        )
    if op == "finish":
        return (
            _(
                "Finish the battle? Its report (the winner, who went out of action) goes to "
                "your opponent to confirm, and nothing more can be logged."
            ),
            _("Finish and send the report"),
        )
    if op == "rout":
        return (
            _(
                "Withdraw this warband from the battle (a voluntary rout)? The battle ends and "
                "its report goes to your opponent."
            ),
            _("Withdraw and end the battle"),
        )
    if _rout_fails(request, battle):
        return (
            _(
                "With these dice (%(faces)s) the warband fails its rout test: it flees and the "
                "battle ends. Log it?"
            )
            % {"faces": " ".join(str(f) for f in forms.faces(request.POST))},
            _("Log the failed rout test"),
        )
    return None


def _field(key: str) -> str:
    """An error's key (``payload.target``, ``faces``) as the form's field name."""
    if key.startswith("payload."):
        key = key.removeprefix("payload.")
    return key.split(".")[0] or "__all__"


def _error_fields(error: Exception) -> dict[str, list[str]]:
    """A refusal's messages, each under the form's field it is about (``__all__``: the form)."""
    if isinstance(error, ValidationError):
        fields: dict[str, list[str]] = {}
        if hasattr(error, "error_dict"):
            for key, found in error.message_dict.items():
                fields.setdefault(_field(key), []).extend(found)
        else:
            fields["__all__"] = list(error.messages)
        return fields
    if isinstance(error, PermissionDenied):
        return {"__all__": [str(error) or _("You may not write in this log.")]}
    return {"__all__": [str(error.detail if isinstance(error, Conflict) else error)]}


def _refused(error: Exception) -> JsonResponse:
    """A refused entry for the page's script: each message under the field it is about."""
    fields = _error_fields(error)
    if isinstance(error, ValidationError):
        return JsonResponse({"errors": fields}, status=400)
    if isinstance(error, PermissionDenied):
        return JsonResponse({"errors": fields}, status=403)
    return JsonResponse({"errors": fields, "conflict": True}, status=409)


def _refused_page(request: HttpRequest, battle: Battle, error: Exception) -> HttpResponse:
    """A refused entry without JavaScript: the table page again (status 400) with the form as
    it was sent, everything typed kept, each reason next to its field, the form's folds open
    and its field focused (the page opens where the form was). A form no longer on the page
    (the battle moved on) leaves its reasons at the top of the page."""
    fields = _error_fields(error)
    status = 400
    if isinstance(error, (PermissionDenied, Conflict)):
        status = 403 if isinstance(error, PermissionDenied) else 409
    state = services.log_state(battle)
    if state is None:
        for found in fields.values():
            for message in found:
                messages.error(request, message)
        return redirect(_back(request, battle))
    context = _live_context(battle, request.user, state, _card_of(request))
    page = render(request, "battles/log/tracker.html", _page_context(context)).content.decode()
    bound = rebind.bind_form(page, request.POST, fields)
    if bound is None:
        for found in fields.values():
            for message in found:
                messages.error(request, message)
        page = render(request, "battles/log/tracker.html", _page_context(context)).content.decode()
    else:
        page = bound
    return HttpResponse(page, status=status)


def _post_page(request: HttpRequest, battle: Battle) -> HttpResponse:
    """One form of the table's page: written, or refused with the reasons. An entry that ends
    the battle (finishing it, a voluntary rout, a rout test failed with typed dice) is asked
    first; finishing then shows the report sent."""
    if not request.user.is_authenticated:
        raise PermissionDenied
    fetching = _fetching(request)
    decisive = _decisive_question(request, battle)
    if decisive is not None and not is_confirmed(request):
        question, button = decisive
        if fetching:
            return JsonResponse({"confirm": question, "label": button})
        return confirmation(
            request,
            question=question,
            label=button,
            back_url=_back(request, battle),
            back_label=_("Back to the table"),
        )
    try:
        _post_entry(request, battle)
    except (ValidationError, Conflict, PermissionDenied) as error:
        if fetching:
            return _refused(error)
        if request.POST.get("op") in ("setup", "lineup"):
            for found in _error_fields(error).values():
                for message in found:
                    messages.error(request, message)
            return redirect(_back(request, battle))
        return _refused_page(request, battle, error)
    if request.POST.get("op") == "finish":
        messages.success(
            request, _("The battle is finished: its report waits for your opponent to confirm.")
        )
        if fetching:
            return JsonResponse({"redirect": battle.get_absolute_url()})
        return redirect(battle.get_absolute_url())
    if request.POST.get("op") == "correction" and battle.status != Battle.Status.SCHEDULED:
        battle.refresh_from_db(fields=["status", "version"])  # the strike-out reopened it
        messages.success(request, _("The report is withdrawn: the battle goes on."))
    if fetching:
        return render(request, "battles/log/_live.html", _live_context(battle, request.user))
    return redirect(_back(request, battle))


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
        return HttpResponse(status=204)  # nothing new: the page keeps what it shows
    return render(request, "battles/log/_live.html", _live_context(battle, request.user))


PLANNED = ("check", "attack", "close-combat", "hits")


@require_http_methods(["POST"])
def battle_log_plan(request: HttpRequest, pk: int) -> HttpResponse:
    """The dice a form's entry needs, step by step, with the faces typed so far (the engine's
    plan, in words): what each step's dice were and how many are asked next. Nothing is
    written; a form the engine cannot plan yet answers an empty fragment."""
    battle = _battle(request, pk)
    op = request.POST.get("op", "")
    state = services.log_state(battle)
    plan = None
    if state is not None and op in PLANNED:
        try:
            payload = forms.payloads(request.POST)[op]()
            plan = plan_lines(dice_plan(state, op, payload, forms.faces(request.POST)).to_dict())
        except (TrackerError, RulesError, ValueError, KeyError, TypeError):
            plan = None
    return render(request, "battles/log/_plan.html", {"plan": plan})


def _card_context(request: HttpRequest, pk: int) -> tuple[dict[str, Any], dict[int, Any]]:
    """What a card's forms need, and the cards by warrior: for those who may write in the log
    (its players, the campaign's organisers) while the battle is played; anyone else who sees
    the battle is refused, anyone who does not, answered not found."""
    battle = _battle(request, pk)
    if not _can_write(request.user, battle):
        raise PermissionDenied(_("You may not write in this log."))
    state = services.log_state(battle)
    if state is None:
        raise Http404
    cards = {f["id"]: f for side in fighter_cards(state, Names.of(state)) for f in side["fighters"]}
    context = {
        "battle": battle,
        "state": {"ended": state.ended},
        "can_write": True,
        "post_url": reverse("battle-log", kwargs={"pk": battle.pk}),
        **_form_choices(state),
    }
    return context, cards


CARD_TEMPLATE = "battles/log/_card_actions.html"


@require_GET
def battle_log_card(request: HttpRequest, pk: int, fighter: int) -> HttpResponse:
    """A card's forms, fetched by the page when the card is first opened (the page itself
    carries none: a warband's forms are most of a page a phone must lay out)."""
    context, cards = _card_context(request, pk)
    if fighter not in cards:
        raise Http404
    response = render(request, CARD_TEMPLATE, {**context, "f": cards[fighter]})
    response["Cache-Control"] = "private, no-cache"
    return response


@require_GET
def battle_log_cards(request: HttpRequest, pk: int) -> JsonResponse:
    """Every card's forms at once, by warrior (``{"12": "<div…>"}``), with the log's last entry
    they were made for: fetched by the page when it is idle, so that a card opens at once and,
    kept by the service worker, opens without network too."""
    context, cards = _card_context(request, pk)
    forms_by_card = {
        str(fighter): render_to_string(CARD_TEMPLATE, {**context, "f": card}, request)
        for fighter, card in cards.items()
    }
    response = JsonResponse({"cards": forms_by_card})
    response["Cache-Control"] = "private, no-cache"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The site's service worker (served from the root so that it may serve the table's pages):
    the table page's shell and static files from the cache when the network is gone."""
    response = render(
        request, "battles/log/sw.js", {"version": SW_VERSION}, content_type="text/javascript"
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


SW_VERSION = "table-2"
