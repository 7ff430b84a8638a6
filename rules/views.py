"""The odds calculator page: exact outcome bars and a "roll it" that shows the dice."""

import secrets

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from rules.engine import (
    Dice,
    RulesError,
    melee_odds,
    resolve_phase,
    resolve_shooting,
    shooting_odds,
)
from rules.forms import OddsForm
from rules.presenters import present_odds, present_result, rules_error_to_validation
from rules.selectors import fighters_for_odds
from rules.situations import SituationError, build_situation

MAX_SEED = 2**31 - 1


def _compute(form: OddsForm, *, roll: bool, seed: int | None) -> dict:
    situation = build_situation(form.situation_data())
    if roll:
        dice = Dice(seed=seed if seed is not None else secrets.randbelow(MAX_SEED))
        if situation.kind == "melee":
            result = resolve_phase(situation.attacker, situation.defender, dice=dice)
        else:
            result = resolve_shooting(situation.attacker, situation.defender, dice=dice)
        return {"rolled": present_result(result.to_dict()), "seed": dice.seed}
    if situation.kind == "melee":
        odds = melee_odds(situation.attacker, situation.defender)
    else:
        odds = shooting_odds(situation.attacker, situation.defender)
    return {"odds": present_odds(odds.to_dict())}


@require_http_methods(["GET", "POST"])
def odds(request: HttpRequest) -> HttpResponse:
    context: dict = {}
    if request.method == "POST":
        form = OddsForm(request.POST)
        if form.is_valid():
            roll = "roll" in request.POST
            try:
                seed = int(request.POST["seed"]) if request.POST.get("seed") else None
            except ValueError:
                seed = None
            try:
                context.update(_compute(form, roll=roll, seed=seed))
            except SituationError as error:
                form.add_error(None, rules_error_to_validation(error.error).messages)
            except RulesError as error:
                form.add_error(None, rules_error_to_validation(error).messages)
    else:
        form = OddsForm()
    context["form"] = form
    context["fighters"] = fighters_for_odds(user=request.user)
    partial = request.headers.get("HX-Request") == "true"
    template = "rules/_odds_result.html" if partial else "rules/odds.html"
    return render(request, template, context)
