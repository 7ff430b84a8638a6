"""The phone page at the table: set up, then the live tracker (htmx polls ``live/`` every 2 s).

Forms post plainly and redirect (the page works without JavaScript); each form carries a
``client_id`` made when it was rendered, so a double tap or a resent form writes one entry.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from annuminas.confirmation import confirmation
from annuminas.converters import parse_id
from annuminas.errors import Conflict
from battles.common import access
from battles.models import Battle, BattleLogEntry, BattleSetup
from rules.engine import WEAPONS
from rules.engine.tracker import FLEEING, STATUSES
from rules.engine.tracker.setup import FEAR
from rules.presenters import CODE_LABELS

from . import prebattle, services
from .api import prebattle_data

LIVE_ENTRIES = 30
STATUS_LABELS = {
    "in_play": gettext_lazy("in play"),
    "knocked_down": gettext_lazy("knocked down (derribado)"),
    "stunned": gettext_lazy("stunned (aturdido)"),
    "out_of_action": gettext_lazy("out of action (fuera de combate)"),
    "fleeing": gettext_lazy("fleeing"),
}
CHECK_LABELS = {
    "rout": gettext_lazy("Rout test"),
    "voluntary-rout": gettext_lazy("Voluntary rout"),
    "stupidity": gettext_lazy("Stupidity"),
    "rally": gettext_lazy("Rally"),
    "fear": gettext_lazy("Fear"),
    "all-alone": gettext_lazy("All alone"),
    "charged-while-fleeing": gettext_lazy("Charged while fleeing"),
    "challenge": gettext_lazy("Answer the challenge"),
}
CHECK_OUTCOMES = {
    "stands": gettext_lazy("stands"),
    "routed": gettext_lazy("routs"),
    "rallied": gettext_lazy("rallies"),
    "keeps_fleeing": gettext_lazy("keeps fleeing"),
    "cannot_rally": gettext_lazy("cannot rally (an enemy is the nearest)"),
    "acts_normally": gettext_lazy("acts normally"),
    "does_not_attack": gettext_lazy("does not attack"),
    "moves_forward": gettext_lazy("moves forward"),
    "drools": gettext_lazy("stays put drooling"),
    "holds": gettext_lazy("holds his ground"),
    "flees": gettext_lazy("flees"),
    "hits_only_on_6": gettext_lazy("hits only on 6s in the first round"),
    "cannot_charge": gettext_lazy("cannot charge (a failed charge)"),
    "immune": gettext_lazy("ignores fear"),
    "not_required": gettext_lazy("no test needed"),
}
SITUATIONS = {
    "charging": gettext_lazy("wants to charge"),
    "charged": gettext_lazy("is charged"),
}
FEAR_PROMPTS = {
    "charging": gettext_lazy("%(enemy)s causes fear: a warrior who wants to charge him tests"),
    "charged": gettext_lazy("%(enemy)s causes fear: a warrior he charges tests"),
}
CHALLENGE_LABELS = {
    "issue": gettext_lazy("issues a challenge"),
    "accept": gettext_lazy("accepts the challenge"),
    "refuse": gettext_lazy("refuses the challenge (¡Buuu! ¡Cobardica!)"),
}
ATTACK_OPTIONS = {
    "charging": gettext_lazy("charging"),
    "hatred": gettext_lazy("hatred"),
    "frenzy": gettext_lazy("frenzy"),
    "fear_failed": gettext_lazy("failed a fear test"),
}
SHOOTING_MODIFIERS = {
    "cover": gettext_lazy("target in cover"),
    "long_range": gettext_lazy("long range"),
    "moved": gettext_lazy("the shooter moved"),
    "large_target": gettext_lazy("large target"),
}


def _battle(request: HttpRequest, pk: int) -> Battle:
    return get_object_or_404(
        access.visible_battles(request.user)
        .select_related("campaign")
        .prefetch_related("participants__warband"),
        pk=pk,
    )


@dataclass(frozen=True)
class Names:
    """Who is who in a log: fighters and warbands by their ids, kept apart (a fighter and a
    warband may share an id number)."""

    fighters: dict[int, str]
    sides: dict[int, str]

    @classmethod
    def of(cls, state) -> Names:
        return cls(
            fighters={f.id: f.name for f in state.fighters.values()},
            sides={side.warband: side.name for side in state.setup.sides},
        )

    def fighter(self, pk) -> str | None:
        return self.fighters.get(pk)

    def side(self, pk) -> str | None:
        return self.sides.get(pk)


def _label(code: Any) -> str:
    if code in STATUS_LABELS:
        return str(STATUS_LABELS[code])
    if code in CHECK_OUTCOMES:
        return str(CHECK_OUTCOMES[code])
    return str(CODE_LABELS.get(code, code))


def _check_line(p: dict[str, Any], names: Names) -> str:
    result = p.get("result") or {}
    text = _("%(check)s of %(who)s: %(outcome)s.") % {
        "check": CHECK_LABELS.get(p["check"], p["check"]),
        "who": names.fighter(p.get("fighter")) or names.side(p.get("side")),
        "outcome": _label(result.get("outcome")),
    }
    if p.get("against"):
        text += " " + _("(against %(enemy)s)") % {"enemy": names.fighter(p["against"])}
    flee = (result.get("details") or {}).get("flee_cm")
    if flee:
        text += " " + _("He runs %(cm)s cm.") % {"cm": flee}
    return text


def describe(entry: BattleLogEntry | dict, names: Names) -> str:
    """One line of the log, as a player would say it."""
    kind = entry["kind"] if isinstance(entry, dict) else entry.kind
    p = entry["payload"] if isinstance(entry, dict) else entry.payload
    name, side = names.fighter, names.side
    if kind == "setup":
        return _("The battle is set up: %(scenario)s.") % {"scenario": p.get("scenario") or "—"}
    if kind == "turn":
        return _("Turn %(turn)s: %(side)s moves.") % {"turn": p["turn"], "side": side(p["side"])}
    if kind == "status":
        if p.get("status") == "out_of_action" and p.get("by"):
            return _("%(actor)s puts %(target)s out of action with %(weapon)s.") % {
                "actor": name(p["by"]),
                "target": name(p["fighter"]),
                "weapon": p.get("weapon") or "—",
            }
        return _("%(fighter)s is now %(status)s.") % {
            "fighter": name(p["fighter"]),
            "status": _label(p["status"]),
        }
    if kind == "attack":
        result = p.get("result") or {}
        return _("%(attacker)s attacks %(target)s (%(mode)s): %(outcome)s.") % {
            "attacker": name(p["attacker"]),
            "target": name(p["target"]),
            "mode": _("shooting") if p.get("mode") == "shooting" else _("close combat"),
            "outcome": _label(result.get("outcome")),
        }
    if kind == "check":
        return _check_line(p, names)
    if kind == "challenge":
        return _("%(fighter)s %(action)s.") % {
            "fighter": name(p["fighter"]),
            "action": CHALLENGE_LABELS.get(p["step"], p["step"]),
        }
    if kind == "rout":
        return _("%(side)s withdraws from the battle.") % {"side": side(p["side"])}
    if kind == "finish":
        if p.get("automatic"):
            return _("The battle is over: a warband routed.")
        return _("The battle is over.")
    if kind == "correction":
        return _("Corrects entry #%(seq)s.") % {"seq": p["corrects"]}
    return p.get("text", "")


def _live_context(battle: Battle, user, state=None) -> dict[str, Any]:
    """What the live part shows; ``state`` is the log folded once by a caller that needs it too."""
    state = state if state is not None else services.log_state(battle)
    names = Names.of(state)
    entries = list(
        BattleLogEntry.objects.filter(battle=battle, seq__gt=max(0, state.last_seq - LIVE_ENTRIES))
        .select_related("author")
        .order_by("-seq")
    )
    data = state.to_dict()
    for side in data["sides"]:
        for fighter in side["fighters"]:
            fighter["status_label"] = _label(fighter["status"])
    for check in data["checks_due"]:
        _label_check(check, names)
    return {
        "battle": battle,
        "state": data,
        "heroes": [
            {"id": f["id"], "name": f["name"], "side": side["warband"]}
            for side in data["sides"]
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
                "corrected": str(e.seq) in data["corrected"],
            }
            for e in entries
        ],
        "can_write": access.can_report(user, battle) and battle.status == Battle.Status.SCHEDULED,
        "client_id": uuid.uuid4(),
    }


def _label_check(check: dict[str, Any], names: Names) -> None:
    """What the page shows of a check due: who tests, against whom, a fresh client_id."""
    check["label"] = CHECK_LABELS[check["check"]]
    check["who"] = names.fighter(check.get("fighter")) or names.side(check["side"])
    check["client_id"] = uuid.uuid4()
    if "against" in check:
        check["against_name"] = names.fighter(check["against"])
        check["prompt"] = FEAR_PROMPTS[check["situation"]] % {"enemy": check["against_name"]}
        check["testers"] = [{"id": f, "name": names.fighter(f)} for f in check["fighters"]]
    if "enemies" in check:
        check["enemy_names"] = ", ".join(str(names.fighter(e)) for e in check["enemies"])


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
    faces = [int(x) for x in form.get("faces", "").replace(",", " ").split() if x.isdigit()]
    payloads = _payloads(form)
    if op not in payloads:
        raise Http404
    services.battle_log_append(
        battle=battle,
        by=request.user,
        kind=op,
        payload=payloads[op](),
        client_id=client_id,
        faces=faces or None,
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


def _check_params(form) -> dict[str, Any]:
    """What the table adds to a check: how many enemies he fights, whether he charges."""
    params: dict[str, Any] = {}
    if form.get("enemies"):
        params["enemies"] = parse_id(form.get("enemies"))
    if form.get("situation") in SITUATIONS:
        params["situation"] = form.get("situation")
    return {"params": params} if params else {}


def _flags(form, names) -> dict[str, bool]:
    return {name: True for name in names if form.get(name)}


def _payloads(form) -> dict[str, Any]:
    number = parse_id
    return {
        "turn": lambda: {"turn": number(form.get("turn")), "side": number(form.get("side"))},
        "status": lambda: {
            "fighter": number(form.get("fighter")),
            "status": form.get("status"),
            **({"by": number(form.get("by"))} if number(form.get("by")) else {}),
            "weapon": form.get("weapon", "")[:80],
        },
        "attack": lambda: {
            "attacker": number(form.get("attacker")),
            "target": number(form.get("target")),
            "mode": form.get("mode", "melee"),
            "weapon": form.get("weapon", "").partition(":")[2][:40],
            "options": _flags(form, ATTACK_OPTIONS),
            "modifiers": _flags(form, SHOOTING_MODIFIERS),
        },
        "challenge": lambda: {
            "step": form.get("step"),
            "fighter": number(form.get("fighter")),
            **({"issued": number(form.get("issued"))} if form.get("issued") else {}),
            "params": {
                **({"can_step_back": False} if form.get("cornered") else {}),
                **({"active_player_declined": True} if form.get("declined") else {}),
            },
        },
        "check": lambda: {
            "check": form.get("check"),
            **({"side": number(form.get("side"))} if form.get("check") == "rout" else {}),
            **({"fighter": number(form.get("fighter"))} if form.get("fighter") else {}),
            **({"against": number(form.get("against"))} if form.get("against") else {}),
            **_check_params(form),
        },
        "rout": lambda: {"side": number(form.get("side")), "voluntary": True},
        "finish": lambda: {
            **({"winner": number(form.get("winner"))} if form.get("winner", "").isdigit() else {}),
            "draw": form.get("winner") == "draw",
        },
        "note": lambda: {"text": form.get("text", "")},
        "correction": lambda: {"corrects": number(form.get("corrects"))},
    }


@require_http_methods(["GET", "POST"])
def battle_log_page(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle(request, pk)
    if request.method == "POST":
        return _post_page(request, battle)
    setup = BattleSetup.objects.filter(battle=battle).first()
    if setup is None:
        return render(request, "battles/log/setup.html", _setup_context(request, battle))
    state = services.log_state(battle)  # folded once for the live part and the forms
    context = _live_context(battle, request.user, state)
    names = Names.of(state)
    context["sides"] = setup.data["sides"]
    # The attack form starts on a warrior of the side to move, against one of another side.
    order = [side["warband"] for side in setup.data["sides"]]
    attacking = state.side if state.side in order else order[0]
    context["attacking_side"] = attacking
    context["defending_side"] = next((w for w in order if w != attacking), attacking)
    context["weapons"] = _weapons(setup.data["sides"])
    context["attack_options"] = ATTACK_OPTIONS.items()
    context["shooting_modifiers"] = SHOOTING_MODIFIERS.items()
    context["correctable"] = [
        {"seq": seq, "text": describe({"kind": kind, "payload": payload}, names)}
        for seq, kind, payload in reversed(state.correctable_entries())
    ]
    context["statuses"] = [(code, _label(code)) for code in STATUSES]
    context["situations"] = SITUATIONS.items()
    context["fear_causers"] = [f for f in state.fighters.values() if FEAR in f.rules]
    context["fleeing"] = [f for f in state.fighters.values() if f.status == FLEEING]
    context["form_ids"] = {
        name: uuid.uuid4()
        for name in (
            "attack",
            "status",
            "note",
            "finish",
            "correction",
            "challenge",
            "fear",
            "all_alone",
            "charged",
        )
    }
    return render(request, "battles/log/tracker.html", context)


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


def _weapons(sides: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each warrior's weapons from the setup's equipment, for the attack form."""
    return [
        {
            "fighter": fighter["id"],
            "name": fighter["name"],
            "weapons": [
                {"slug": slug, "name": WEAPONS[slug].name, "kind": WEAPONS[slug].kind}
                for slug in fighter["equipment"]
                if slug in WEAPONS and WEAPONS[slug].kind in ("melee", "missile")
            ],
        }
        for side in sides
        for fighter in side["fighters"]
    ]


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
