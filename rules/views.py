"""The odds calculator page: exact outcome bars and a "roll it" that shows the dice."""

import secrets

from django.apps import apps
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from rules.engine import Dice, RulesError
from rules.forms import OddsForm
from rules.presenters import present_odds, present_result, rules_error_to_validation
from rules.selectors import fighters_for_odds, weapon_names
from rules.situations import SituationError, build_situation

MAX_SEED = 2**31 - 1
WEAPON_KEYS = ("weapon", "offhand")


def _weapon_names(value, names: dict[str, str]):
    """Steps name weapons by their catalogue slug; the reader sees the weapon's name in his
    language."""
    if isinstance(value, list):
        return [_weapon_names(item, names) for item in value]
    if not isinstance(value, dict):
        return value
    named = {key: _weapon_names(item, names) for key, item in value.items()}
    params = named.get("params")
    if isinstance(params, dict):
        named["params"] = {
            key: names.get(item, item) if key in WEAPON_KEYS and isinstance(item, str) else item
            for key, item in params.items()
        }
    return named


def _defender_gear(fighters: list[dict]) -> list[dict]:
    """Each fighter's armour save, parry and helmet from what he (or his group) carries, so
    picking him as the defender fills those too (one query)."""
    ids = [fighter["id"] for fighter in fighters]
    if not ids:
        return fighters
    item_model = apps.get_model("warbands", "EquipmentItem")
    carried: dict[int, list[tuple[str, dict]]] = {}
    rows = item_model.objects.filter(Q(fighter_id__in=ids) | Q(group__members__in=ids)).values_list(
        "fighter_id", "group__members", "equipment__kind", "equipment__rules"
    )
    for fighter_id, member_id, kind, rules in rows:
        carried.setdefault(fighter_id or member_id, []).append((kind, rules or {}))
    for fighter in fighters:
        items = carried.get(fighter["id"], [])
        saves = [rules["save"] for kind, rules in items if rules.get("save")]
        save = min(saves) if saves else None
        if any(rules.get("save_bonus") for kind, rules in items):
            save = 6 if save is None else max(2, save - 1)
        parries = sum(1 for kind, rules in items if rules.get("parry"))
        fighter["profile"].update(
            {
                "armour_save": save or "",
                "parry": "reroll" if parries > 1 else "single" if parries else "none",
                "helmet": "1" if any(kind == "helmet" for kind, rules in items) else "",
            }
        )
    return fighters


def _compute(form: OddsForm, *, roll: bool, names: dict[str, str]) -> dict:
    situation = build_situation(form.situation_data())
    if roll:
        faces, seed = form.cleaned_data.get("faces"), form.cleaned_data.get("seed")
        if faces:
            dice = Dice(faces=faces)
        else:
            dice = Dice(seed=seed if seed is not None else secrets.randbelow(MAX_SEED))
        result = situation.resolve(dice)
        return {
            "rolled": present_result(_weapon_names(result.to_dict(), names)),
            "seed": dice.seed,
            "faces": faces,
        }
    odds = situation.odds()
    return {"odds": present_odds(_weapon_names(odds.to_dict(), names))}


@require_http_methods(["GET", "POST"])
def odds(request: HttpRequest) -> HttpResponse:
    context: dict = {}
    names = weapon_names()
    if request.method == "POST":
        form = OddsForm(request.POST, weapon_names=names)
        if form.is_valid():
            roll = "roll" in request.POST
            try:
                context.update(_compute(form, roll=roll, names=names))
            except SituationError as error:
                form.add_error(None, rules_error_to_validation(error.error).messages)
            except RulesError as error:
                form.add_error(None, rules_error_to_validation(error).messages)
    else:
        form = OddsForm(weapon_names=names)
    context["form"] = form
    context["fighters"] = _defender_gear(fighters_for_odds(user=request.user))
    partial = request.headers.get("HX-Request") == "true"
    template = "rules/_odds_result.html" if partial else "rules/odds.html"
    return render(request, template, context)
