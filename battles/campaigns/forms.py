"""Forms of the campaign pages: parsing only; the services validate the game's rules.

The campaign form's settings are built from their declarations (``league_settings``): each kind
of setting has its fields, its value and its initial value here (``SETTING_FIELDS``).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from battles.campaigns import league_settings
from battles.campaigns.house_rules import house_rules_clean
from battles.campaigns.league_settings import Kind, Setting
from battles.campaigns.presets import DEFAULT_PRESET, PRESET_CHOICES
from battles.campaigns.services.schedule import round_dates_check
from battles.campaigns.setting_checks import ALL_HIRED_SWORDS
from battles.models import Campaign, Round
from warbands.models import HiredSword, WarbandType

NOT_GIVEN = object()  # a setting left empty: the preset's value on creation, else unchanged


class DomainCheckedChoices(forms.MultipleChoiceField):
    """Checkboxes whose values the domain checks (``house_rules_clean``), so a value that is
    not offered gets the same message as in the API, not the field's own."""

    def valid_value(self, value) -> bool:
        return True


class NumberFields:
    """A whole number (the browser is told its bounds; the domain checks them, with the same
    message as the API's) and, where allowed, a "no limit" checkbox."""

    @staticmethod
    def names(setting: Setting) -> list[str]:
        return [setting.key, f"no_{setting.key}"] if setting.no_limit else [setting.key]

    @staticmethod
    def fields(setting: Setting) -> dict[str, forms.Field]:
        low, high = setting.bounds
        number = forms.IntegerField(
            label=setting.label,
            help_text=setting.help,
            required=False,
            initial=None if setting.presets else setting.default,
            widget=forms.NumberInput(attrs={"min": low, "max": high}),
        )
        fields = {setting.key: number}
        if setting.no_limit:
            fields[f"no_{setting.key}"] = forms.BooleanField(
                label=setting.no_limit_label, required=False
            )
        return fields

    @staticmethod
    def value(setting: Setting, data: dict, *, creating: bool) -> Any:
        if setting.no_limit and data.get(f"no_{setting.key}"):
            return None
        value = data.get(setting.key)
        if value is None:
            return None if setting.no_limit and not creating else NOT_GIVEN
        return value

    @staticmethod
    def initial(setting: Setting, value) -> dict:
        initial = {setting.key: value}
        if setting.no_limit:
            initial[f"no_{setting.key}"] = value is None
        return initial


class TextFields:
    @staticmethod
    def names(setting: Setting) -> list[str]:
        return [setting.key]

    @staticmethod
    def fields(setting: Setting) -> dict[str, forms.Field]:
        widget = forms.TextInput(attrs={"maxlength": setting.max_length})
        return {
            setting.key: forms.CharField(
                label=setting.label, help_text=setting.help, widget=widget, required=False
            )
        }

    @staticmethod
    def value(setting: Setting, data: dict, *, creating: bool) -> Any:
        text = data.get(setting.key) or ""
        return NOT_GIVEN if creating and not text and setting.presets else text

    @staticmethod
    def initial(setting: Setting, value) -> dict:
        return {setting.key: value}


class ChoicesFields(TextFields):
    @staticmethod
    def fields(setting: Setting) -> dict[str, forms.Field]:
        return {
            setting.key: DomainCheckedChoices(
                label=setting.label,
                help_text=setting.help,
                choices=setting.choices(),
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
        }

    @staticmethod
    def value(setting: Setting, data: dict, *, creating: bool) -> Any:
        return list(data.get(setting.key) or [])

    @staticmethod
    def initial(setting: Setting, value) -> dict:
        return {setting.key: list(value or [])}


class OrderFields:
    """One choice per place: the first tie-breaker, the second… (none chosen: the default)."""

    @staticmethod
    def names(setting: Setting) -> list[str]:
        slot = setting.key.removesuffix("s")
        return [f"{slot}_{n}" for n in range(1, len(setting.choices()) + 1)]

    @staticmethod
    def fields(setting: Setting) -> dict[str, forms.Field]:
        choices = [("", "—"), *setting.choices()]
        return {
            name: forms.ChoiceField(
                label=_("Tie-breaker %(number)s") % {"number": n}, choices=choices, required=False
            )
            for n, name in enumerate(OrderFields.names(setting), start=1)
        }

    @staticmethod
    def value(setting: Setting, data: dict, *, creating: bool) -> Any:
        order = [data.get(name) for name in OrderFields.names(setting)]
        return [name for name in order if name] or list(setting.default)

    @staticmethod
    def initial(setting: Setting, value) -> dict:
        return dict(zip(OrderFields.names(setting), value or [], strict=False))


class TablesFields(TextFields):
    @staticmethod
    def fields(setting: Setting) -> dict[str, forms.Field]:
        widget = forms.Textarea(attrs={"rows": 3})
        return {
            setting.key: forms.CharField(
                label=setting.label, help_text=setting.help, widget=widget, required=False
            )
        }

    @staticmethod
    def value(setting: Setting, data: dict, *, creating: bool) -> Any:
        text = (data.get(setting.key) or "").strip()
        if not text:
            return {}
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            # The parser's own words are English: say where, in the reader's language.
            raise ValidationError(
                _(
                    "This is not valid JSON (line %(line)s, column %(column)s): "
                    "check the brackets, commas and quotes there."
                )
                % {"line": error.lineno, "column": error.colno}
            ) from error
        except RecursionError as error:
            raise ValidationError(_("This is not valid JSON: it is nested too deeply.")) from error

    @staticmethod
    def initial(setting: Setting, value) -> dict:
        return {setting.key: json.dumps(value, ensure_ascii=False) if value else ""}


class SwordsFields(ChoicesFields):
    @staticmethod
    def fields(setting: Setting) -> dict[str, forms.Field]:
        swords = HiredSword.objects.select_related("fighter_type")
        choices = [
            (ALL_HIRED_SWORDS, _("No hired swords")),
            *((sword.slug, sword.display_name) for sword in swords),
        ]
        return {
            setting.key: DomainCheckedChoices(
                label=setting.label,
                help_text=setting.help,
                choices=choices,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
        }

    @staticmethod
    def value(setting: Setting, data: dict, *, creating: bool) -> Any:
        """With "No hired swords" checked every sword is forbidden, whatever else is checked."""
        chosen = list(data.get(setting.key) or [])
        return ALL_HIRED_SWORDS if ALL_HIRED_SWORDS in chosen else chosen

    @staticmethod
    def initial(setting: Setting, value) -> dict:
        return {setting.key: [ALL_HIRED_SWORDS] if value == ALL_HIRED_SWORDS else list(value or [])}


class TypesFields(TextFields):
    @staticmethod
    def fields(setting: Setting) -> dict[str, forms.Field]:
        return {
            setting.key: forms.ModelMultipleChoiceField(
                label=setting.label,
                help_text=setting.help,
                queryset=WarbandType.objects.filter(playable=True, pack_version=None).order_by(
                    "name"
                ),
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
        }

    @staticmethod
    def value(setting: Setting, data: dict, *, creating: bool) -> Any:
        return list(data.get(setting.key) or [])


class FlagFields(TextFields):
    """A checkbox: left unchecked, the answer is no."""

    @staticmethod
    def fields(setting: Setting) -> dict[str, forms.Field]:
        return {
            setting.key: forms.BooleanField(
                label=setting.label, help_text=setting.help, required=False
            )
        }

    @staticmethod
    def value(setting: Setting, data: dict, *, creating: bool) -> Any:
        return bool(data.get(setting.key))


SETTING_FIELDS = {
    Kind.NUMBER: NumberFields,
    Kind.TEXT: TextFields,
    Kind.CHOICES: ChoicesFields,
    Kind.ORDER: OrderFields,
    Kind.TABLES: TablesFields,
    Kind.SWORDS: SwordsFields,
    Kind.TYPES: TypesFields,
    Kind.FLAG: FlagFields,
}


class CampaignForm(forms.Form):
    """A campaign's name and its settings, one field (or a few) per declared setting."""

    name = forms.CharField(label=_("Name"), max_length=120)
    description = forms.CharField(label=_("Description"), widget=forms.Textarea, required=False)
    public = forms.BooleanField(
        label=_("Public: anyone may read the campaign and its standings"), required=False
    )
    preset = forms.ChoiceField(
        label=_("Size preset"), choices=PRESET_CHOICES, initial=DEFAULT_PRESET
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._unreadable: set[str] = set()
        for setting in league_settings.SETTINGS:
            self.fields.update(SETTING_FIELDS[setting.kind].fields(setting))

    def setting_groups(self) -> list[dict]:
        """The settings as the page lays them out: a fieldset per group, a box per setting."""
        return [
            {
                "group": group,
                "settings": [
                    {
                        "setting": setting,
                        "fields": [self[n] for n in SETTING_FIELDS[setting.kind].names(setting)],
                    }
                    for setting in settings
                ],
            }
            for group, settings in league_settings.grouped()
        ]

    def _values(self, *, creating: bool) -> dict[str, Any]:
        values = {}
        for setting in league_settings.SETTINGS:
            if setting.kind == Kind.TYPES or setting.key in self._unreadable:
                continue
            value = SETTING_FIELDS[setting.kind].value(
                setting, self.cleaned_data, creating=creating
            )
            if value is not NOT_GIVEN:
                values[setting.key] = value
        return values

    def clean(self):
        """The settings given, checked by the domain (``house_rules_clean``): the same messages
        as the API and the services, on the fields."""
        data = super().clean()
        self._unreadable = set()
        for setting in league_settings.SETTINGS:
            try:
                SETTING_FIELDS[setting.kind].value(setting, data, creating=True)
            except ValidationError as error:
                self._unreadable.add(setting.key)
                self.add_error(setting.key, error)
        try:
            house_rules_clean(self._values(creating=True))
        except ValidationError as error:
            for key, messages in error.message_dict.items():
                self.add_error(self._error_field(key), messages)
        return data

    def _error_field(self, key: str) -> str | None:
        if key not in league_settings.house_rule_keys():
            return None
        setting = league_settings.setting(key)
        return SETTING_FIELDS[setting.kind].names(setting)[0]

    def house_rules(self, *, creating: bool) -> dict:
        """The settings to write: on creation those left empty take the preset's values; on a
        change they stay as they are (an empty limit that allows none means no limit)."""
        return self._values(creating=creating)

    @classmethod
    def initial_for(cls, campaign: Campaign) -> dict:
        initial = {
            name: getattr(campaign, name) for name in ("name", "description", "public", "preset")
        }
        for setting in league_settings.SETTINGS:
            value = (
                list(campaign.allowed_warband_types.all())
                if setting.kind == Kind.TYPES
                else getattr(campaign, setting.key)
            )
            initial.update(SETTING_FIELDS[setting.kind].initial(setting, value))
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
