"""One form for an entry of any section of a pack's draft, derived from the section's declared
keys (``document.KEYS``) and what each holds (``document.key_type``): no form per section.

The form only shapes what was typed (a number stays the text typed when it is not one; an
empty field leaves its key out); every judgement is the document's check, run by the services
for the whole draft, whose problems come back next to the field they name. The one refusal of
its own is what the document cannot even hold: an equipment list's price for an item that is
not ticked in the list.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.engine import vocabulary

from ..models import Equipment, EquipmentList, FighterType, Race, SkillList, WarbandType
from .document import BOUNDS, ENTRY_LABELS, KEYS, LANGUAGES, NESTED, SLUG_MAX_LENGTH, key_type
from .files import yaml_read, yaml_write
from .forms import PROFILE_HELP
from .order import KEY_ORDER

PRICES = "item_prices"  # an equipment list's own prices: a form field, not a key of the entry

# Each key's place in the form, the Spanish name first (the document's order).
ORDER = tuple(k for k in KEY_ORDER if k not in ("slug", "en", "version", "settings"))
LABELS = {
    "name": _("Name (Spanish)"),
    "description": _("Description"),
    "credit": _("Source and credit"),
    "kind": _("Kind"),
    "role": _("Role"),
    "race": _("Race"),
    "cost": _("Cost (co)"),
    "cost_dice": _("Extra cost in dice"),
    "upkeep": _("Upkeep (co)"),
    "rating": _("Rating"),
    "rarity": _("Rarity"),
    "max": _("At most"),
    "group": _("Group of at most"),
    "xp": _("Starting experience"),
    "starting_treasury": _("Starting treasury (co)"),
    "min_size": _("Fewest warriors"),
    "max_size": _("Most warriors"),
    "max_heroes": _("Most heroes"),
    "profile": _("Profile"),
    "range_cm": _("Range (cm)"),
    "strength": _("Strength"),
    "save": _("Armour save"),
    "two_handed": _("Two-handed"),
    "large": _("Large target"),
    "experience": _("Gains experience"),
    "playable": _("Players may choose it"),
    "rules": _("Special rules"),
    "skills": _("Skill lists"),
    "equipment": _("Equipment"),
    "items": _("Items"),
    "may_hire": _("Only these warband types may hire him"),
    "may_not_hire": _("These warband types may not hire him"),
    "effects": _("Effects"),
}
KIND_LABELS = {("races", "max"): _("Maximum profile")}
HELP = {
    "credit": _('Where it comes from, e.g. "Annúminas v3.0, p. 62".'),
    "profile": PROFILE_HELP,
    "cost_dice": _('e.g. "2D6"'),
    "effects": _("As YAML, e.g. {strength_bonus: 1}"),
}
# The choices' names in the reader's language (the catalogue models' own).
CHOICE_NAMES = {"kind": Equipment.Kind.choices, "role": FighterType.Role.choices}
ENGLISH = {"name": _("Name in English"), "description": _("Description in English")}
DEFAULT_MODELS = {
    "races": Race,
    "skill_lists": SkillList,
    "equipment": Equipment,
    "equipment_lists": EquipmentList,
    "warband_types": WarbandType,
}


def entry_keys(kind: str) -> list[str]:
    """The keys the form shows for a ``kind`` entry: its declared keys but the nested ones
    (edited one by one) and the languages (their own fields)."""
    keys = [k for k in ORDER if k in KEYS[kind] and key_type(kind, k)[0] != "nested"]
    return keys + sorted(
        k
        for k in KEYS[kind] - set(keys) - set(LANGUAGES)
        if key_type(kind, k)[0] not in ("nested",)
    )


def choices_of(document: dict, section: str) -> list[tuple[str, str]]:
    """The slugs an entry may point at: the draft's own (first), then the default catalogue's."""
    own = [
        (slug, f"{row.get('name', slug)} ({slug})" if isinstance(row, dict) else slug)
        for slug, row in (document.get(section) or {}).items()
    ]
    taken = {slug for slug, _label in own}
    model = DEFAULT_MODELS.get(section)
    default = []
    if model is not None:
        rows = model.objects.filter(pack_version=None).order_by("name")
        default = [(row.slug, str(row.display_name)) for row in rows if row.slug not in taken]
    return own + default


def _rule_choices() -> list[tuple[str, str]]:
    return [(key, f"{gettext(rule.label)} ({key})") for key, rule in vocabulary.RULES.items()]


def _mapping_help(kind: str) -> str:
    if kind == "equipment":
        return str(_("As YAML, e.g. {parry: true}; the keys are the rules engine's (%(url)s).")) % {
            "url": "/api/v1/rules/vocabulary/"
        }
    return str(HELP["effects"])


class EntryForm(forms.Form):
    """An entry of ``kind`` (a section, or "skills" / "fighter_types" under their parent)."""

    def __init__(
        self, *args, kind: str, document: dict, row: dict | None = None, new: bool, **kwargs
    ):
        self.kind = kind
        self.new = new
        self.row = row or {}
        super().__init__(*args, initial=self._initial(), **kwargs)
        if new:
            self.fields["slug"] = forms.CharField(
                label=_("Slug"),
                required=False,
                max_length=SLUG_MAX_LENGTH + 20,
                help_text=_("Lower-case letters, digits, - and _; left empty: from the name."),
            )
            if kind == "special_rules":  # its slug is a key of the engine's vocabulary
                self.fields["slug"] = forms.ChoiceField(
                    label=_("Rule"), required=False, choices=[("", "—"), *_rule_choices()]
                )
        for key in entry_keys(kind):
            self.fields[key] = self._field(key, document)
            if key == "items":
                self.fields[PRICES] = forms.CharField(
                    label=_("Prices in this list"),
                    required=False,
                    widget=forms.Textarea(attrs={"rows": 3}),
                    help_text=_(
                        "Optional, one item a line: its slug and its price in this list, e.g. "
                        '"espada: 10"; "arco: {cost: 10, common: true}" also makes it common. '
                        "An item not named costs its own price."
                    ),
                )
            if key in ("name", "description"):
                for language in LANGUAGES:
                    self.fields[f"{language}_{key}"] = forms.CharField(
                        label=ENGLISH[key],
                        required=False,
                        widget=forms.Textarea(attrs={"rows": 2})
                        if key == "description"
                        else forms.TextInput,
                    )

    def _field(self, key: str, document: dict) -> forms.Field:
        field = self._typed_field(key, document)
        if isinstance(field, forms.ChoiceField):
            # What the entry holds stays a choice even when the lists lack it (a targeted rule
            # "hatred:x", a slug the check will refuse): an edit never drops it unseen.
            offered = {str(value) for value, _label in field.choices}
            held = self.initial.get(key)
            for value in held if isinstance(held, list) else [held]:
                if isinstance(value, str) and value and value not in offered:
                    field.choices = [*field.choices, (value, value)]
        return field

    def _typed_field(self, key: str, document: dict) -> forms.Field:
        shape = key_type(self.kind, key)
        label = KIND_LABELS.get((self.kind, key)) or LABELS.get(key, key)
        help_text = HELP.get(key, "")
        if key == "race" and self.kind == "warband_types":
            help_text = ""  # its own: required
        common = {"label": label, "required": False, "help_text": help_text}
        match shape[0]:
            case "long":
                return forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), **common)
            case "int":
                low, high = BOUNDS[key]
                widget = forms.NumberInput(attrs={"min": low, "max": high, "inputmode": "numeric"})
                return forms.CharField(widget=widget, **common)
            case "bool":
                return forms.BooleanField(**common)
            case "choice":
                named = dict(CHOICE_NAMES.get(key, ()))
                options = [(c, named.get(c, c)) for c in shape[1]]
                return forms.ChoiceField(choices=[("", "—"), *options], **common)
            case "profile":
                return forms.CharField(**{**common, "help_text": PROFILE_HELP})
            case "ref":
                choices = [("", "—"), *choices_of(document, shape[1])]
                return forms.ChoiceField(choices=choices, **common)
            case "refs":
                return forms.MultipleChoiceField(
                    choices=choices_of(document, shape[1]),
                    widget=forms.CheckboxSelectMultiple,
                    **common,
                )
            case "rules":
                return forms.MultipleChoiceField(
                    choices=_rule_choices(), widget=forms.CheckboxSelectMultiple, **common
                )
            case "mapping":
                return forms.CharField(**{**common, "help_text": _mapping_help(self.kind)})
        return forms.CharField(max_length=2000, **common)

    def _initial(self) -> dict[str, Any]:
        row, initial = self.row, {}
        for key in entry_keys(self.kind):
            shape, value = key_type(self.kind, key), row.get(key)
            if shape[0] == "bool":
                initial[key] = shape[1] if value is None else value
            elif value is None:
                continue
            elif shape[0] in ("refs", "rules") or key == "items":
                values = value if isinstance(value, list) else [value]
                initial[key] = [next(iter(v)) if isinstance(v, dict) and v else v for v in values]
            elif shape[0] == "mapping":
                initial[key] = yaml_write(value).strip() if value else ""
            else:
                initial[key] = value
        if "items" in entry_keys(self.kind) and (prices := _list_prices(row.get("items"))):
            initial[PRICES] = yaml_write(prices).strip()
        for language in LANGUAGES:
            block = row.get(language) if isinstance(row.get(language), dict) else {}
            for key in ("name", "description"):
                if block.get(key):
                    initial[f"{language}_{key}"] = block[key]
        return initial

    def clean_item_prices(self) -> dict[str, Any]:
        text = (self.cleaned_data.get(PRICES) or "").strip()
        if not text:
            return {}
        prices = _mapping(text)
        if not isinstance(prices, dict) or not all(isinstance(k, str) for k in prices):
            raise ValidationError(_('One item a line, its slug then its price: "espada: 10".'))
        chosen = set(self.cleaned_data.get("items") or ())  # cleaned just before this field
        if stray := sorted(set(prices) - chosen):
            raise ValidationError(
                _("Priced but not ticked in the list: %(items)s.") % {"items": ", ".join(stray)}
            )
        return {
            k: v if isinstance(v, dict) else {"cost": _number(str(v))} for k, v in prices.items()
        }

    # What was typed, as the document's entry -------------------------------------------------
    def slug(self, fixed: str = "") -> str:
        if fixed:
            return fixed
        typed = (self.cleaned_data.get("slug") or "").strip()
        return typed or slugify(self.cleaned_data.get("name") or "")[:SLUG_MAX_LENGTH]

    def entry(self) -> dict[str, Any]:
        """The entry as typed, over the one it edits: keys the form does not show (the nested
        entries, a translated strength) are kept; a list's items carry the prices typed."""
        data, row = self.cleaned_data, dict(self.row)
        for key in entry_keys(self.kind):
            shape, value = key_type(self.kind, key), data.get(key)
            if shape[0] == "bool":
                if value == shape[1] and key not in self.row:
                    row.pop(key, None)
                else:
                    row[key] = bool(value)
                continue
            if value in (None, "", []):
                row.pop(key, None)
                continue
            if shape[0] == "int":
                row[key] = _number(value)
            elif shape[0] == "mapping":
                row[key] = _mapping(value)
            elif key == "items":
                prices = data.get(PRICES) or {}
                row[key] = [{slug: prices[slug]} if slug in prices else slug for slug in value]
            elif shape[0] in ("text", "long", "profile"):
                row[key] = value.strip()
            else:
                row[key] = list(value) if isinstance(value, list) else value
        for language in LANGUAGES:
            block = dict(row.get(language) or {}) if isinstance(row.get(language), dict) else {}
            for key in ("name", "description"):
                text = (data.get(f"{language}_{key}") or "").strip()
                if text:
                    block[key] = text
                else:
                    block.pop(key, None)
            if block:
                row[language] = block
            else:
                row.pop(language, None)
        return row

    def show(self, problems, slug: str) -> None:
        """The check's problems about this entry (``slug``) beside their fields; the others
        (an entry that points at it, the pack as a whole) above the form."""
        for problem in problems:
            mine = problem.slug == slug
            field = problem.field if mine and problem.field in self.fields else None
            if mine and problem.field in LANGUAGES:
                field = f"{problem.field}_name"
            if problem.field == "slug" and "slug" not in self.fields:
                field = None
            self.add_error(field, ValidationError(str(problem)))


def _number(value: str) -> int | str:
    try:
        return int(str(value).strip())
    except ValueError:
        return str(value)  # the check says what a number must be


def _list_prices(items: Any) -> dict[str, Any]:
    """An equipment list's own prices, ``{slug: cost}`` (or ``{slug: {cost, common}}`` when it
    says more than the cost), as its form shows them."""
    prices: dict[str, Any] = {}
    for entry in items if isinstance(items, list) else []:
        if isinstance(entry, dict) and len(entry) == 1:
            ((slug, options),) = entry.items()
            if isinstance(options, dict) and set(options) == {"cost"}:
                prices[slug] = options["cost"]
            elif options:
                prices[slug] = options
    return prices


def _mapping(value: str) -> Any:
    try:
        return yaml_read(value)
    except ValidationError:
        return value  # the check says it must be a mapping


def entry_label(kind: str) -> str:
    return str(ENTRY_LABELS[kind])


def parent_of(kind: str) -> tuple[str, str] | None:
    return NESTED.get(kind)
