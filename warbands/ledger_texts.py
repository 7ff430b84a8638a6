"""What a ledger line says: a code and its parameters are stored, the words are chosen when the
line is shown, in the reader's language (a batch job writing in Spanish no longer freezes them).

A parameter is plain data (a name, a number), a list (joined with commas, "—" when empty) or a
term (``{"term": "stash"}``) translated when shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import get_language, gettext_lazy, ngettext_lazy

LEDGER_TEXTS = {
    "starting_treasury": gettext_lazy("Starting treasury"),
    "campaign_starting_treasury": gettext_lazy("Starting treasury of the campaign %(campaign)s"),
    "hired_hero": gettext_lazy("Hired %(name)s (%(type)s)"),
    "hired_henchmen": gettext_lazy("Hired %(count)d × %(type)s into %(group)s"),
    "bought": gettext_lazy("Bought %(item)s for %(holder)s"),
    "sold": gettext_lazy("Sold %(item)s of %(holder)s"),
    "dismissed": ngettext_lazy(
        "Dismissed %(name)s; %(count)d item to the stash",
        "Dismissed %(name)s; %(count)d items to the stash",
        "count",
    ),
    "dead": gettext_lazy("%(name)s is dead; equipment lost: %(items)s"),
    "robbed": gettext_lazy("%(name)s was robbed: %(items)s"),
    "imported": gettext_lazy("Imported treasury and finds"),
    "postbattle_reverted": gettext_lazy("Post-battle sequence reverted"),
    "pit_fight_won": gettext_lazy("%(name)s won in the pits"),
    "exploration": gettext_lazy("Exploration after battle %(id)s"),
    "finds_sold": ngettext_lazy("%(finds)d find sold", "%(finds)d finds sold", "finds"),
    "captive_sold": gettext_lazy("%(name)s sold to the slavers"),
    "ransom_paid": gettext_lazy("Ransom paid for %(name)s"),
    "ransom_received": gettext_lazy("Ransom received for %(name)s"),
    "hired_sword_hired": gettext_lazy("Hired the hired sword %(name)s (%(type)s)"),
    "hired_sword_upkeep": gettext_lazy("Upkeep of the hired sword %(name)s"),
    "hired_sword_left": gettext_lazy("The hired sword %(name)s left the warband unpaid"),
    "undone": gettext_lazy("Undone: %(change)s"),
}

# The roster changes a player can undo (``warbands.services.undo``), as "undo …" reads them.
UNDO_TEXTS = {
    "hired_hero": gettext_lazy("the hire of %(name)s"),
    "hired_henchmen": gettext_lazy("the hire of %(count)d × %(type)s"),
    "hired_sword": gettext_lazy("the hire of the hired sword %(name)s"),
    "bought": gettext_lazy("the purchase of %(item)s"),
    "sold": gettext_lazy("the sale of %(item)s"),
    "stashed": gettext_lazy("moving %(item)s to the stash"),
    "assigned": gettext_lazy("giving %(item)s to %(holder)s"),
    "dismissed": gettext_lazy("the dismissal of %(name)s"),
    "retired": gettext_lazy("the retirement of %(name)s"),
    "sword_left": gettext_lazy("letting the hired sword %(name)s go"),
}

# Each code's parameters, with a sample of each kind: the writer is checked against them and a
# test renders every code with these in both languages.
LEDGER_PARAMS: dict[str, dict[str, Any]] = {
    "starting_treasury": {},
    "campaign_starting_treasury": {"campaign": "Liga del Norte"},
    "hired_hero": {"name": "Aranarth", "type": "Capitán"},
    "hired_henchmen": {"count": 3, "type": "Guerrero", "group": "Lanzas"},
    "bought": {"item": "Espada", "holder": {"term": "stash"}},
    "sold": {"item": "Espada", "holder": "Aranarth"},
    "dismissed": {"name": "Aranarth", "count": 2},
    "dead": {"name": "Aranarth", "items": ["Espada", "Escudo"]},
    "robbed": {"name": "Aranarth", "items": []},
    "imported": {},
    "postbattle_reverted": {},
    "pit_fight_won": {"name": "Aranarth"},
    "exploration": {"id": 7},
    "finds_sold": {"finds": 2},
    "captive_sold": {"name": "Aranarth"},
    "ransom_paid": {"name": "Aranarth"},
    "ransom_received": {"name": "Aranarth"},
    "hired_sword_hired": {"name": "Gorbag", "type": "Huargo"},
    "hired_sword_upkeep": {"name": "Gorbag"},
    "hired_sword_left": {"name": "Gorbag"},
    "undone": {"change": {"undo": "bought", "params": {"item": "Espada"}}},
}

TERMS = {"stash": gettext_lazy("the stash")}


def stash_term() -> dict[str, str]:
    """The parameter that reads "the stash" in the reader's language."""
    return {"term": "stash"}


def catalogue_term(row: Any) -> dict[str, dict[str, str]]:
    """A catalogue row's name (an item, a fighter type) as a parameter worded when shown: in
    every language its pack gives it (``translations``), read in the reader's."""
    names = {settings.LANGUAGE_CODE: row.name}
    for language, fields in (getattr(row, "translations", None) or {}).items():
        if isinstance(fields, Mapping) and isinstance(fields.get("name"), str) and fields["name"]:
            names[language] = fields["name"]
    return {"names": names}


def undo_text(code: str, params: Mapping[str, Any] | None = None) -> str:
    """What an undoable change was, in the active language ("the purchase of Espada")."""
    message = UNDO_TEXTS.get(code)
    if message is None:
        return code
    return str(message) % {key: _shown(value) for key, value in (params or {}).items()}


def _shown(value: Any) -> Any:
    if isinstance(value, Mapping) and value.get("term") in TERMS:
        return str(TERMS[value["term"]])
    if isinstance(value, Mapping) and "undo" in value:
        return undo_text(value["undo"], value.get("params"))
    if isinstance(value, Mapping) and isinstance(value.get("names"), Mapping):
        names = value["names"]
        language = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
        return (
            names.get(language)
            or names.get(settings.LANGUAGE_CODE)
            or next(iter(names.values()), "")
        )
    if isinstance(value, list | tuple):
        return ", ".join(str(_shown(part)) for part in value) or "—"
    return value


def ledger_text(code: str, params: Mapping[str, Any] | None = None) -> str:
    """The line in the active language; an unknown code (a newer release's) shows as itself."""
    message = LEDGER_TEXTS.get(code)
    if message is None:
        return code
    # The lazy text itself takes the parameters: a plural one picks its form by its number.
    return str(message % {key: _shown(value) for key, value in (params or {}).items()})


def ledger_text_check(code: str, params: Mapping[str, Any]) -> None:
    """Refuse an unknown code or a missing or extra parameter (a programming error)."""
    if code not in LEDGER_TEXTS:
        raise ValidationError(f"Unknown ledger text code: {code}.")
    expected, given = set(LEDGER_PARAMS[code]), set(params)
    if expected != given:
        raise ValidationError(
            f"Ledger text {code} takes {sorted(expected)}, was given {sorted(given)}."
        )
