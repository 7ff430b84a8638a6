"""The pack pages' forms: they shape what was typed; the check is the document's."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import ContentPack

PROFILE_HELP = _("M WS BS S T W I A Ld, e.g. 10 3 3 3 3 1 3 1 7")


class PackForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    visibility = forms.ChoiceField(
        label=_("Who may see it"),
        choices=ContentPack.Visibility.choices,
        initial=ContentPack.Visibility.PRIVATE,
    )
    credit = forms.CharField(
        label=_("Source and credit"),
        max_length=300,
        required=False,
        help_text=_('Where its lists come from, e.g. "Annúminas v3.0".'),
    )


class PackCreateForm(PackForm):
    START_EMPTY = "empty"
    START_DEFAULT = "default"
    start = forms.ChoiceField(
        label=_("Start from"),
        choices=[
            (START_EMPTY, _("an empty pack")),
            (START_DEFAULT, _("a copy of the default pack")),
        ],
        initial=START_EMPTY,
    )


class PackImportForm(forms.Form):
    text = forms.CharField(
        label=_("The pack as YAML"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
    )
    file = forms.FileField(label=_("…or a YAML file"), required=False)


class WarbandTypeForm(forms.Form):
    """A warband type with a leader, a hero, a henchman type and their equipment list."""

    name = forms.CharField(label=_("Warband type's name (Spanish)"), max_length=120)
    name_en = forms.CharField(label=_("Name in English"), max_length=120, required=False)
    race = forms.ChoiceField(label=_("Race"))
    starting_treasury = forms.IntegerField(
        label=_("Starting treasury (co)"), min_value=0, max_value=10000, initial=500
    )
    max_size = forms.IntegerField(
        label=_("Maximum warriors"), min_value=1, max_value=50, initial=15
    )
    leader_name = forms.CharField(label=_("Leader"), max_length=120)
    leader_cost = forms.IntegerField(label=_("Leader's cost"), min_value=0, max_value=5000)
    leader_profile = forms.CharField(label=_("Leader's profile"), help_text=PROFILE_HELP)
    hero_name = forms.CharField(label=_("Hero"), max_length=120, required=False)
    hero_cost = forms.IntegerField(label=_("Hero's cost"), min_value=0, required=False)
    hero_max = forms.IntegerField(label=_("Heroes of this type"), min_value=1, required=False)
    hero_profile = forms.CharField(label=_("Hero's profile"), required=False)
    henchman_name = forms.CharField(label=_("Henchmen"), max_length=120, required=False)
    henchman_cost = forms.IntegerField(label=_("Henchman's cost"), min_value=0, required=False)
    henchman_profile = forms.CharField(label=_("Henchman's profile"), required=False)
    items = forms.MultipleChoiceField(
        label=_("Their equipment list"), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, races, items, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["race"].choices = races
        self.fields["items"].choices = items
