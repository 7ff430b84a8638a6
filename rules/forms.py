"""The odds calculator's form: flat fields in, the API's nested situation out."""

from collections.abc import Mapping

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rules.api.serializers import MELEE_WEAPONS, MISSILE_WEAPONS
from rules.engine import WEAPONS


def _int(label, low, high, initial, required=True):
    return forms.IntegerField(
        label=label, min_value=low, max_value=high, initial=initial, required=required
    )


def _weapon_choices(slugs):
    return [("", _("Hand weapon"))] + [(slug, WEAPONS[slug].name) for slug in slugs]


class OddsForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Attack"),
        choices=[("melee", _("Close combat")), ("shooting", _("Shooting"))],
        initial="melee",
    )
    # Attacker
    a_ws = _int(pgettext_lazy("profile", "WS"), 0, 10, 3)
    a_bs = _int(pgettext_lazy("profile", "BS"), 0, 10, 3)
    a_s = _int(pgettext_lazy("profile", "S"), 0, 10, 3)
    a_a = _int(pgettext_lazy("profile", "A"), 1, 10, 1)
    a_weapon = forms.ChoiceField(
        label=_("Close-combat weapon"), choices=_weapon_choices(MELEE_WEAPONS), required=False
    )
    a_offhand = forms.ChoiceField(
        label=_("Second weapon"),
        choices=[("", _("None"))] + _weapon_choices(MELEE_WEAPONS)[1:],
        required=False,
    )
    a_missile = forms.ChoiceField(
        label=_("Missile weapon"),
        choices=[(slug, WEAPONS[slug].name) for slug in MISSILE_WEAPONS],
        initial="arco",
        required=False,
    )
    a_charging = forms.BooleanField(label=_("Charging"), required=False)
    a_later_round = forms.BooleanField(
        label=_("A later round of the combat"),
        required=False,
        help_text=_("Flails, hatred and a failed fear test count only in the first round."),
    )
    a_frenzy = forms.BooleanField(label=_("Frenzy"), required=False)
    a_hatred = forms.BooleanField(label=_("Hatred"), required=False)
    # Defender
    d_ws = _int(pgettext_lazy("profile", "WS"), 0, 10, 3)
    d_t = _int(pgettext_lazy("profile", "T"), 1, 10, 3)
    d_w = _int(pgettext_lazy("profile", "W"), 0, 10, 1)
    d_s = _int(pgettext_lazy("profile", "S"), 0, 10, 3)
    d_armour_save = forms.TypedChoiceField(
        label=_("Armour save"),
        choices=[("", _("None")), ("6", "6+"), ("5", "5+"), ("4", "4+"), ("3", "3+"), ("2", "2+")],
        coerce=int,
        empty_value=None,
        required=False,
    )
    d_parry = forms.ChoiceField(
        label=_("Parry"),
        choices=[
            ("none", _("None")),
            ("single", _("Sword or buckler")),
            ("reroll", _("Sword and buckler (re-roll)")),
        ],
        initial="none",
    )
    d_helmet = forms.BooleanField(label=_("Helmet"), required=False)
    d_knocked_down = forms.BooleanField(label=_("Knocked down"), required=False)
    d_stunned = forms.BooleanField(label=_("Stunned"), required=False)
    # Shooting modifiers
    m_cover = forms.BooleanField(label=_("Cover"), required=False)
    m_long_range = forms.BooleanField(label=_("Long range"), required=False)
    m_moved = forms.BooleanField(label=_("Moved"), required=False)
    m_large_target = forms.BooleanField(label=_("Large target"), required=False)
    # Where "Roll it" takes its dice from: a seed (replayable) or the faces rolled at the table.
    seed = forms.IntegerField(label=_("Seed"), min_value=0, max_value=2**31 - 1, required=False)
    faces = forms.CharField(
        label=_("Dice rolled at the table"),
        required=False,
        max_length=500,
        help_text=_("The faces in order, e.g. 5 3 4; used instead of random dice."),
    )

    def __init__(self, *args, weapon_names: Mapping[str, str] | None = None, **kwargs):
        """``weapon_names``: slug → the weapon's name in the reader's language (the catalogue's,
        ``rules.selectors.weapon_names``); without it the engine's names are shown."""
        super().__init__(*args, **kwargs)
        names = weapon_names or {}
        for name in ("a_weapon", "a_offhand", "a_missile"):
            field = self.fields[name]
            field.choices = [(value, names.get(value, label)) for value, label in field.choices]

    def clean_faces(self) -> list[int] | None:
        text = self.cleaned_data.get("faces", "").replace(",", " ").split()
        if not text:
            return None
        try:
            faces = [int(face) for face in text]
        except ValueError:
            raise forms.ValidationError(_("Write the faces as numbers from 1 to 6.")) from None
        if any(not 1 <= face <= 6 for face in faces):
            raise forms.ValidationError(_("Write the faces as numbers from 1 to 6."))
        return faces

    def clean(self):
        data = super().clean()
        if data.get("faces") and data.get("seed") is not None:
            self.add_error("faces", _("Give either a seed or the faces rolled, not both."))
        return data

    def situation_data(self) -> dict:
        """The cleaned data in the REST API's shape (``POST /api/v1/rules/odds/``)."""
        data = self.cleaned_data
        melee = data["kind"] == "melee"
        attacker = {
            "ws": data["a_ws"],
            "bs": data["a_bs"],
            "s": data["a_s"],
            "a": data["a_a"],
            "weapon": (data["a_weapon"] or None) if melee else data["a_missile"] or "arco",
            "offhand": (data["a_offhand"] or None) if melee else None,
            "charging": data["a_charging"],
            "first_round": not data["a_later_round"],
            "frenzy": data["a_frenzy"],
            "hatred": data["a_hatred"],
        }
        defender = {
            "ws": data["d_ws"],
            "t": data["d_t"],
            "w": data["d_w"],
            "s": data["d_s"],
            "armour_save": data["d_armour_save"],
            "parry": data["d_parry"],
            "helmet": data["d_helmet"],
            "knocked_down": data["d_knocked_down"],
            "stunned": data["d_stunned"],
        }
        modifiers = {
            name: data[f"m_{name}"] for name in ("cover", "long_range", "moved", "large_target")
        }
        return {
            "kind": data["kind"],
            "attacker": attacker,
            "defender": defender,
            "modifiers": modifiers,
        }
