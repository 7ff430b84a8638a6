"""Forms of the campaign pages: parsing only; the services validate the game's rules."""

from __future__ import annotations

import json

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from battles.campaigns.house_rules import (
    ALL_HIRED_SWORDS,
    HIRED_SWORDS_FORBIDDEN,
    HOUSE_RULE_FIELDS,
    NUMBER_BOUNDS,
    TEXT_MAX_LENGTH,
    house_rules_clean,
)
from battles.campaigns.presets import DEFAULT_PRESET, PRESET_CHOICES
from battles.campaigns.scoring import BONUS_FIELDS
from battles.campaigns.services.schedule import round_dates_check
from battles.campaigns.standings import DEFAULT_TIE_BREAKERS, TIE_BREAKER_CHOICES
from battles.models import OPTIONAL_RULES, Campaign, Round
from warbands.models import HiredSword, WarbandType

TIE_BREAKER_SLOTS = len(TIE_BREAKER_CHOICES)  # every tie-breaker can be placed
# Left empty on creation, these take the preset's value.
PRESET_FIELDS = ("starting_treasury", "rating_cap", "max_fighter_type_copies", "table_size",
                 "game_length")  # fmt: skip


def _house_rule_number(name: str, label, **kwargs) -> forms.IntegerField:
    """A whole number whose bounds ``house_rules_clean`` checks (the same message as the API's);
    the browser is told them too."""
    low, high = NUMBER_BOUNDS[name]
    widget = forms.NumberInput(attrs={"min": low, "max": high})
    return forms.IntegerField(label=label, widget=widget, **kwargs)


def _house_rule_text(name: str, label) -> forms.CharField:
    widget = forms.TextInput(attrs={"maxlength": TEXT_MAX_LENGTH[name]})
    return forms.CharField(label=label, widget=widget, required=False)


class DomainCheckedChoices(forms.MultipleChoiceField):
    """Checkboxes whose values the domain checks (``house_rules_clean``), so a value that is
    not offered gets the same message as in the API, not the field's own."""

    def valid_value(self, value) -> bool:
        return True


class CampaignForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    description = forms.CharField(label=_("Description"), widget=forms.Textarea, required=False)
    public = forms.BooleanField(
        label=_("Public: anyone may read the campaign and its standings"), required=False
    )
    preset = forms.ChoiceField(
        label=_("Size preset"), choices=PRESET_CHOICES, initial=DEFAULT_PRESET
    )
    starting_treasury = _house_rule_number(
        "starting_treasury", _("Starting treasury (co)"), required=False
    )
    rating_cap = _house_rule_number("rating_cap", _("Warband rating cap"), required=False)
    no_rating_cap = forms.BooleanField(label=_("No rating cap"), required=False)
    allowed_warband_types = forms.ModelMultipleChoiceField(
        label=_("Allowed warband types (none: all)"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    max_fighter_type_copies = _house_rule_number(
        "max_fighter_type_copies", _("Maximum copies of one fighter type"), required=False
    )
    points_win = _house_rule_number("points_win", _("Points for a win"), initial=3)
    points_draw = _house_rule_number("points_draw", _("Points for a draw"), initial=1)
    points_loss = _house_rule_number("points_loss", _("Points for a loss"), initial=0)
    points_bye = _house_rule_number("points_bye", _("Points for a bye"), initial=3)
    points_per_out_of_action = _house_rule_number(
        "points_per_out_of_action",
        _("Bonus points per enemy put out of action"),
        initial=0,
        required=False,
    )
    points_per_objective = _house_rule_number(
        "points_per_objective",
        _("Bonus points per scenario objective"),
        initial=0,
        required=False,
    )
    optional_rules = forms.MultipleChoiceField(
        label=_("Optional rules"),
        choices=OPTIONAL_RULES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    hired_swords_forbidden = DomainCheckedChoices(
        label=_("Hired swords forbidden"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    table_size = _house_rule_text("table_size", _("Table size"))
    game_length = _house_rule_text("game_length", _("Game length"))
    tables = forms.CharField(
        label=_("Campaign table overrides (JSON; empty: the default tables)"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["allowed_warband_types"].queryset = WarbandType.objects.filter(
            playable=True
        ).order_by("name")
        swords = HiredSword.objects.select_related("fighter_type")
        self.fields[HIRED_SWORDS_FORBIDDEN].choices = [
            (ALL_HIRED_SWORDS, _("No hired swords")),
            *((sword.slug, sword.display_name) for sword in swords),
        ]
        for slot in range(1, TIE_BREAKER_SLOTS + 1):
            self.fields[f"tie_breaker_{slot}"] = forms.ChoiceField(
                label=_("Tie-breaker %(number)s") % {"number": slot},
                choices=[("", "—"), *TIE_BREAKER_CHOICES],
                required=False,
            )

    def tie_breaker_fields(self) -> list:
        return [self[f"tie_breaker_{slot}"] for slot in range(1, TIE_BREAKER_SLOTS + 1)]

    def tie_breakers(self) -> list[str]:
        """The chosen order; none chosen: the default order."""
        data = self.cleaned_data
        order = [data.get(f"tie_breaker_{n}") for n in range(1, TIE_BREAKER_SLOTS + 1)]
        return [name for name in order if name] or list(DEFAULT_TIE_BREAKERS)

    def clean_hired_swords_forbidden(self) -> str | list[str]:
        """With "No hired swords" checked every sword is forbidden, whatever else is checked."""
        chosen = self.cleaned_data[HIRED_SWORDS_FORBIDDEN]
        return ALL_HIRED_SWORDS if ALL_HIRED_SWORDS in chosen else chosen

    def clean(self):
        """The house rules and the scoring given, checked by the domain
        (``house_rules_clean``): the same messages as the API and the services, on the fields."""
        data = super().clean()
        given = {
            name: data[name]
            for name in (*HOUSE_RULE_FIELDS, *BONUS_FIELDS)
            if data.get(name) not in (None, "")
        }
        if HIRED_SWORDS_FORBIDDEN in data:
            given[HIRED_SWORDS_FORBIDDEN] = data[HIRED_SWORDS_FORBIDDEN]
        if data.get("no_rating_cap"):
            given.pop("rating_cap", None)
        try:
            house_rules_clean({**given, "tie_breakers": self.tie_breakers()})
        except ValidationError as error:
            for name, messages in error.message_dict.items():
                field = "tie_breaker_1" if name == "tie_breakers" else name
                self.add_error(field if field in self.fields else None, messages)
        return data

    def clean_tables(self):
        text = self.cleaned_data["tables"].strip()
        if not text:
            return {}
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise ValidationError(
                _("This is not valid JSON: %(error)s") % {"error": error}
            ) from error

    def house_rules(self, *, creating: bool) -> dict:
        data = self.cleaned_data
        rules = {name: data[name] for name in HOUSE_RULE_FIELDS}
        if creating:
            rules = {k: v for k, v in rules.items() if not (k in PRESET_FIELDS and v in (None, ""))}
        if data.get("no_rating_cap"):
            rules["rating_cap"] = None
        rules.update({name: data[name] for name in BONUS_FIELDS if data.get(name) is not None})
        rules["tie_breakers"] = self.tie_breakers()
        rules[HIRED_SWORDS_FORBIDDEN] = data[HIRED_SWORDS_FORBIDDEN]
        return rules

    @classmethod
    def initial_for(cls, campaign: Campaign) -> dict:
        initial = {
            name: getattr(campaign, name)
            for name in ("name", "description", "public", "preset", *HOUSE_RULE_FIELDS)
        }
        initial["tables"] = (
            json.dumps(campaign.tables, ensure_ascii=False) if campaign.tables else ""
        )
        initial["no_rating_cap"] = campaign.rating_cap is None
        initial.update({name: getattr(campaign, name) for name in BONUS_FIELDS})
        for slot, name in enumerate(campaign.tie_breakers or [], start=1):
            if slot <= TIE_BREAKER_SLOTS:
                initial[f"tie_breaker_{slot}"] = name
        initial["allowed_warband_types"] = list(campaign.allowed_warband_types.all())
        forbidden = campaign.hired_swords_forbidden or []
        initial[HIRED_SWORDS_FORBIDDEN] = (
            [ALL_HIRED_SWORDS] if forbidden == ALL_HIRED_SWORDS else list(forbidden)
        )
        return initial


class JoinForm(forms.Form):
    join_code = forms.CharField(label=_("Join code"), max_length=12)
    warband = forms.ModelChoiceField(label=_("Your warband"), queryset=None)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["warband"].queryset = user.warbands.select_related("warband_type").order_by(
            "name"
        )
        self.fields["warband"].label_from_instance = lambda w: (
            _("%(name)s (%(type)s, rating %(rating)s)")
            % {"name": w.name, "type": w.warband_type.name, "rating": w.rating}
        )


class OrganiserForm(forms.Form):
    username = forms.CharField(label=_("Username of the co-organiser"), max_length=150)


class GenerateForm(forms.Form):
    method = forms.ChoiceField(
        label=_("Pairing method"),
        choices=[
            (Round.Method.SWISS, Round.Method.SWISS.label),
            (Round.Method.RATING, Round.Method.RATING.label),
        ],  # fmt: skip
    )


class RoundDatesForm(forms.Form):
    """A round's start day and deadline (both optional), checked by ``round_dates_check``."""

    starts_on = forms.DateField(
        label=_("Starts on"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    closes_at = forms.DateTimeField(
        label=_("Deadline"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )

    def __init__(self, *args, round: Round | None = None, **kwargs):
        self.round = round
        if round is not None:
            kwargs.setdefault(
                "initial", {"starts_on": round.starts_on, "closes_at": round.closes_at}
            )
        super().__init__(*args, **kwargs)

    def clean(self):
        data = super().clean()
        if not self.errors:
            try:
                round_dates_check(
                    starts_on=data.get("starts_on"),
                    closes_at=data.get("closes_at"),
                    previous_closes_at=self.round.closes_at if self.round else None,
                )
            except ValidationError as error:
                self.add_error(None, error)
        return data


class PairingForm(forms.Form):
    warbands = forms.MultipleChoiceField(label=_("Warbands (2–4; one alone: a bye)"), choices=())

    def __init__(self, *args, warband_choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["warbands"].choices = warband_choices
