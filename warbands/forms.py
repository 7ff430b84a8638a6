from django import forms
from django.db.models import Count
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from .limits import NAME_MAX_LENGTH, NOTES_MAX_LENGTH
from .models import EquipmentListEntry, Fighter, FighterType, HenchmanGroup, WarbandType


class WarbandCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX_LENGTH)
    warband_type = forms.ModelChoiceField(
        label=_("Warband type"),
        queryset=WarbandType.objects.filter(playable=True, pack_version=None).order_by("name"),
        empty_label=_("Choose a warband type"),
    )

    def __init__(self, *args, pack_version=None, **kwargs):
        """``pack_version``: the types of that published version of a pack (a league's), not
        the default catalogue's."""
        super().__init__(*args, **kwargs)
        self.pack_version = pack_version
        if pack_version is not None:
            self.fields["warband_type"].queryset = WarbandType.objects.filter(
                playable=True, pack_version=pack_version
            ).order_by("name")


class VersionedForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)


class WarbandEditForm(VersionedForm):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX_LENGTH)
    notes = forms.CharField(
        label=_("Notes"),
        required=False,
        max_length=NOTES_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
    )


class HireForm(VersionedForm):
    fighter_type = forms.ModelChoiceField(label=_("Type"), queryset=FighterType.objects.none())
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX_LENGTH)
    count = forms.IntegerField(label=_("How many (henchmen)"), min_value=1, max_value=20, initial=1)
    group = forms.ModelChoiceField(
        label=_("Join an existing group"),
        queryset=HenchmanGroup.objects.none(),
        required=False,
        empty_label=_("— a new group —"),
    )

    def __init__(self, *args, warband, **kwargs):
        super().__init__(*args, **kwargs)
        self._in_roster = warband.fighters.filter(status__in=Fighter.IN_ROSTER)
        types = FighterType.objects.filter(warband_type_id=warband.warband_type_id).order_by(
            "order"
        )
        self.fields["fighter_type"].queryset = types
        self.fields["fighter_type"].label_from_instance = self._label
        self.fields["group"].queryset = HenchmanGroup.objects.filter(warband=warband)

    # Read only when the dialog is drawn (a preview or a hire never needs them).
    @cached_property
    def hired(self) -> dict[int, int]:
        """Warriors in the roster per fighter type."""
        rows = self._in_roster.order_by().values_list("fighter_type").annotate(n=Count("pk"))
        return dict(rows)

    @cached_property
    def has_leader(self) -> bool:
        return self._in_roster.filter(is_leader=True).exists()

    def offer_no_second_leader(self) -> None:
        """The dialog leaves out the leader types once there is a leader (a posted one is
        still refused by the service, with its reason)."""
        if self.has_leader:
            field = self.fields["fighter_type"]
            field.queryset = field.queryset.exclude(role=FighterType.Role.LEADER)

    def _label(self, fighter_type: FighterType) -> str:
        role = fighter_type.get_role_display()
        label = f"{fighter_type.display_name} — {fighter_type.cost} co ({role})"
        if fighter_type.max_count is not None:
            hired = self.hired.get(fighter_type.pk, 0)
            label += " · " + _("%(left)d of %(max)d left") % {
                "left": max(0, fighter_type.max_count - hired),
                "max": fighter_type.max_count,
            }
        return label


class BuyForm(VersionedForm):
    entry = forms.ModelChoiceField(label=_("Item"), queryset=EquipmentListEntry.objects.none())

    def __init__(self, *args, entries, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = entries


class AssignForm(VersionedForm):
    target = forms.ChoiceField(label=_("Give it to"))

    def __init__(self, *args, targets, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = targets


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Warband file (JSON)"))
