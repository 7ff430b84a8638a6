"""The post-battle results and decisions as a reader sees them, in his language, with names.

The stored steps keep what the engine wrote: English message templates whose parameters are
machine codes (``fine``, ``survived``, ``doubles``, ``chest_wound``…), and the decisions keep
slugs and ids. Both are turned into words here, when shown, never when written: a batch job
must not freeze a page in its own language.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, gettext_lazy, gettext_noop
from django.utils.translation import pgettext_lazy as pgettext_l

from battles.models import PendingDecision
from rules.engine.tables import SERIOUS_INJURY_LABELS
from rules.presenters import code_label, roll_purpose, translate_message
from rules.presenters import present_steps as translated_steps
from warbands.models import Equipment, Fighter, Skill, SkillList
from warbands.models.catalogue import PROFILE_HEADERS, translated

STEP_TITLES = {
    "missed": gettext_lazy("Missed the battle"),
    "injury": gettext_lazy("Injuries"),
    "retired": gettext_lazy("Retired"),
    "experience": gettext_lazy("Experience"),
    "advance": gettext_lazy("Advances"),
    "exploration": gettext_lazy("Exploration"),
    "sell_finds": gettext_lazy("Finds sold"),
    "rare_items": gettext_lazy("Rare items"),
    "rating": gettext_lazy("Warband rating"),
}

# Results of the injury tables and of their sub-rolls (the serious injuries' own labels are
# the engine's msgids, translated below).
RESULT_LABELS = {
    "fine": pgettext_l("injury result", "fine"),
    "dead": pgettext_l("injury result", "dead"),
    "arm_lost": gettext_lazy("the arm is lost"),
    "misses_next_battle": gettext_lazy("misses the next battle"),
    "cannot_run": gettext_lazy("can no longer run"),
    "stupidity": gettext_lazy("stupidity"),
    "frenzy": gettext_lazy("frenzy"),
    "the_injurer": gettext_lazy("the enemy who injured him"),
    "that_leader": gettext_lazy("that warband's leader"),
    "that_warband": gettext_lazy("that whole warband"),
    "every_warband_of_that_type": gettext_lazy("every warband of that type"),
}

EXPERIENCE_REASONS = {
    "survived": gettext_lazy("survived the battle"),
    "winning_leader": gettext_lazy("leader of the winning warband"),
    "enemies_out_of_action": gettext_lazy("enemies put out of action"),
    "scenario": gettext_lazy("scenario bonus"),
    "underdog": gettext_lazy("underdog bonus"),
}

MULTIPLES = {
    "doubles": gettext_lazy("Doubles"),
    "triples": gettext_lazy("Triples"),
    "quadruples": gettext_lazy("Quadruples"),
    "quintuples": gettext_lazy("Quintuples"),
    "sextuples": gettext_lazy("Sextuples"),
}

CHARACTERISTIC_NAMES = {
    "m": gettext_lazy("Movement"),
    "ws": gettext_lazy("Weapon Skill"),
    "bs": gettext_lazy("Ballistic Skill"),
    "s": gettext_lazy("Strength"),
    "t": gettext_lazy("Toughness"),
    "w": gettext_lazy("Wounds"),
    "i": gettext_lazy("Initiative"),
    "a": gettext_lazy("Attacks"),
    "ld": gettext_lazy("Leadership"),
}

# The words of the buttons, per kind and option; an answered decision says what was chosen.
OPTION_LABELS = {
    PendingDecision.Kind.CAPTIVE: {
        "ransom": gettext_lazy("Offer him back for a ransom"),
        "sell": gettext_lazy("Sell to the slavers"),
        "exchange": gettext_lazy("Exchange / release"),
        "accept": gettext_lazy("Pay the ransom"),
        "refuse": gettext_lazy("Refuse"),
    },
    PendingDecision.Kind.UPKEEP: {
        "pay": gettext_lazy("Pay the upkeep"),
        "leave": gettext_lazy("Let him go"),
    },
}
ANSWER_WORDS = {
    (PendingDecision.Kind.CAPTIVE, "ransom"): gettext_noop("Offered back for %(value)s co"),
    (PendingDecision.Kind.CAPTIVE, "sell"): gettext_noop("Sold for %(value)s co"),
    (PendingDecision.Kind.CAPTIVE, "exchange"): gettext_noop("Exchanged or released"),
    (PendingDecision.Kind.CAPTIVE, "accept"): gettext_noop("Ransom paid: %(value)s co"),
    (PendingDecision.Kind.CAPTIVE, "refuse"): gettext_noop("Ransom refused"),
    (PendingDecision.Kind.UPKEEP, "pay"): gettext_noop("Paid: %(value)s co"),
    (PendingDecision.Kind.UPKEEP, "leave"): gettext_noop("He leaves"),
}


def characteristic_label(code: str) -> str:
    """``Weapon Skill (WS)`` / ``Habilidad de Armas (HA)``."""
    if code not in CHARACTERISTIC_NAMES:
        return code
    return f"{CHARACTERISTIC_NAMES[code]} ({PROFILE_HEADERS[code]})"


def _param(key: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if key == "label":
        return gettext(value)
    if key == "reason":
        return str(EXPERIENCE_REASONS.get(value, value))
    if key == "kind":
        return str(MULTIPLES.get(value, value))
    if key == "result":
        if value in RESULT_LABELS:
            return str(RESULT_LABELS[value])
        if value in SERIOUS_INJURY_LABELS:
            return gettext(SERIOUS_INJURY_LABELS[value])
    return code_label(key, value)


def step_message(template: str, params: dict[str, Any]) -> str:
    return translate_message(template, params, _param)


def _engine_result(result: dict[str, Any]) -> dict[str, Any]:
    presented = dict(result)
    presented["steps"] = translated_steps(result.get("steps", []), _param)
    presented["rolls"] = [
        {**roll, "purpose": roll_purpose(roll.get("purpose", ""))}
        for roll in result.get("rolls", [])
    ]
    for key, value in result.items():
        if isinstance(value, dict) and "steps" in value:
            presented[key] = _engine_result(value)
    return presented


def _display_names(model, slugs: set[str]) -> dict[str, str]:
    """Slug → name in the reader's language of those catalogue rows (one query)."""
    rows = model.objects.filter(slug__in=slugs).values_list("slug", "name", "translations")
    return {slug: translated(name, translations, "name") for slug, name, translations in rows}


@dataclass
class Names:
    """Catalogue and roster names for the slugs and ids the decisions and steps hold, read in
    one query per table for a whole page."""

    skills: dict[str, str] = field(default_factory=dict)
    skill_lists: dict[str, str] = field(default_factory=dict)
    equipment: dict[str, str] = field(default_factory=dict)
    fighters: dict[int, tuple[str, str]] = field(default_factory=dict)

    @classmethod
    def load(cls, decisions: Iterable[PendingDecision], steps: Iterable[dict] = ()) -> Names:
        skills: set[str] = set()
        lists: set[str] = set()
        items: set[str] = set()
        fighters: set[int] = set()
        for decision in decisions:
            if decision.kind == PendingDecision.Kind.SKILL:
                skills |= {str(slug) for slug in decision.options}
                if isinstance(decision.choice, str):
                    skills.add(decision.choice)
            elif decision.kind == PendingDecision.Kind.RARE_ITEM:
                items |= {str(slug) for slug in decision.options}
            elif decision.kind == PendingDecision.Kind.LADS_GOT_TALENT:
                fighters |= {int(pk) for pk in decision.options if str(pk).isdigit()}
                lists |= {str(slug) for slug in decision.payload.get("skill_lists", [])}
        for step in steps:
            if step.get("step") == "rare_items":
                items |= {str(slug) for slug in step.get("found") or []}
        names = cls()
        if skills:
            names.skills = _display_names(Skill, skills)
        if lists:
            names.skill_lists = _display_names(SkillList, lists)
        if items:
            names.equipment = _display_names(Equipment, items)
        if fighters:
            rows = Fighter.objects.filter(pk__in=fighters).values_list(
                "pk", "name", "fighter_type__name", "fighter_type__translations"
            )
            names.fighters = {
                pk: (name, translated(type_name, translations, "name"))
                for pk, name, type_name, translations in rows
            }
        return names

    def fighter(self, pk: Any) -> str:
        try:
            name, type_name = self.fighters[int(pk)]
        except (KeyError, TypeError, ValueError):
            return gettext("a member of the group")
        return f"{name} ({type_name})"


def option_labels(decision: PendingDecision, names: Names) -> dict[str, str]:
    """Each option of the decision (as the API takes it, as a string key) in words."""
    kind = decision.kind
    labels: dict[str, str] = {}
    for option in decision.options:
        key = str(option)
        if kind == PendingDecision.Kind.CHARACTERISTIC:
            labels[key] = characteristic_label(key)
        elif kind == PendingDecision.Kind.SKILL:
            labels[key] = names.skills.get(key, key)
        elif kind == PendingDecision.Kind.RARE_ITEM:
            price = decision.payload.get("prices", {}).get(key)
            name = names.equipment.get(key, key)
            labels[key] = name if price is None else f"{name} · {price} co"
        elif kind == PendingDecision.Kind.LADS_GOT_TALENT:
            labels[key] = names.fighter(option)
        else:
            labels[key] = str(OPTION_LABELS.get(kind, {}).get(key, key))
    return labels


def skill_list_labels(decision: PendingDecision, names: Names) -> dict[str, str]:
    return {
        slug: names.skill_lists.get(slug, slug) for slug in decision.payload.get("skill_lists", [])
    }


def _money(decision: PendingDecision) -> Any:
    payload = decision.payload
    return payload.get("upkeep", payload.get("sale_value", ""))


def answer_text(decision: PendingDecision, names: Names) -> str:
    """What was decided, in words: ``Chosen: Agile``, ``Paid: 20 co``, ``He leaves``."""
    status = decision.status
    choice = decision.choice
    if status == PendingDecision.Status.CANCELLED:
        return gettext("Cancelled")
    if status == PendingDecision.Status.OPEN:
        return gettext("Waiting for an answer")
    kind = decision.kind
    if kind == PendingDecision.Kind.LADS_GOT_TALENT and isinstance(choice, dict):
        lists = ", ".join(
            names.skill_lists.get(str(slug), str(slug)) for slug in choice.get("skill_lists") or []
        )
        return gettext("Promoted: %(fighter)s · skill lists: %(lists)s") % {
            "fighter": names.fighter(choice.get("fighter")),
            "lists": lists,
        }
    if kind == PendingDecision.Kind.RARE_ITEM and choice in (None, ""):
        return gettext("Not bought")
    if (kind, choice) in ANSWER_WORDS:
        return gettext(ANSWER_WORDS[(kind, choice)]) % {"value": _money(decision)}
    if kind == PendingDecision.Kind.RARE_ITEM:
        item = names.equipment.get(choice, choice)
        price = (decision.payload.get("prices") or {}).get(choice)
        if price is None:
            return gettext("Bought: %(item)s") % {"item": item}
        return gettext("Bought: %(item)s for %(value)s co") % {"item": item, "value": price}
    if choice is None:
        return gettext("Declined")
    label = option_labels(decision, names).get(str(choice), str(choice))
    return gettext("Chosen: %(choice)s") % {"choice": label}


def present_decision(decision: PendingDecision, names: Names) -> dict[str, Any]:
    """What the decisions section of the page shows for one decision."""
    labels = option_labels(decision, names)
    subject = ""
    if decision.fighter is not None:
        subject = decision.fighter.name
    elif decision.group is not None:
        subject = decision.group.name
    return {
        "decision": decision,
        "kind": decision.kind,
        "title": decision.get_kind_display(),
        "subject": subject,
        "choices": list(labels.items()),
        "skill_lists": list(skill_list_labels(decision, names).items()),
        "money": _money(decision),
        "answer": answer_text(decision, names),
        "is_open": decision.status == PendingDecision.Status.OPEN,
    }


def present_steps(steps: list[dict[str, Any]], names: Names) -> list[dict[str, Any]]:
    """A result's stored steps, each with its title and its engine result in words."""
    presented = []
    for step in steps:
        entry = dict(step)
        entry["title"] = str(STEP_TITLES.get(step["step"], step["step"]))
        if "result" in entry:
            entry["result"] = _engine_result(entry["result"])
        if step["step"] == "rare_items":
            found = step.get("found") or []
            entry["found_names"] = [names.equipment.get(slug, slug) for slug in found]
        presented.append(entry)
    return presented
