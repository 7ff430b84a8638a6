"""Forms of a battle's pages (its report, events, a reason): parsing only; the services
validate the game's rules."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from battles.models import BattleEvent
from battles.reports.check import EventReport, ParticipantReport, Report


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))


def side_choices(participants, fighters_by_warband) -> list:
    """Select options for an event's actor or target: a whole warband ("w<id>") or one of its
    fighters ("f<id>"), grouped by warband."""
    groups: list = [("", "—")]
    for participant in participants:
        warband = participant.warband
        options = [(f"w{warband.pk}", _("%(warband)s (the warband)") % {"warband": warband.name})]
        options += [
            (f"f{fighter.pk}", f"{fighter.name} · {fighter.fighter_type.display_name}")
            for fighter in fighters_by_warband.get(warband.pk, [])
        ]
        groups.append((warband.name, options))
    return groups


class EventForm(forms.Form):
    turn = forms.IntegerField(label=_("Turn"), min_value=1, max_value=99, required=False)
    kind = forms.ChoiceField(
        label=_("Event"), choices=[("", "—"), *BattleEvent.Kind.choices], required=False
    )
    actor = forms.ChoiceField(label=_("Who"), required=False)
    target = forms.ChoiceField(label=_("Whom"), required=False)
    weapon = forms.CharField(label=_("With (weapon)"), max_length=80, required=False)
    voluntary = forms.BooleanField(label=_("Voluntary"), required=False)

    def __init__(self, *args, side_choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["actor"].choices = side_choices
        self.fields["target"].choices = side_choices

    def is_blank(self) -> bool:
        data = self.cleaned_data
        return not data.get("kind") and not data.get("turn")

    def clean(self):
        data = super().clean()
        if not self.is_blank() and not (data.get("kind") and data.get("turn")):
            raise ValidationError(
                _("Give both the turn and the kind of event, or leave the row empty.")
            )
        if (
            data.get("kind") == BattleEvent.Kind.OUT_OF_ACTION
            and data.get("actor")
            and data.get("actor") == data.get("target")
        ):
            self.add_error("target", _("A fighter cannot put himself out of action."))
        return data

    def to_event(self) -> EventReport:
        data = self.cleaned_data

        def split(value):
            if not value:
                return None, None
            kind, number = value[0], int(value[1:])
            return (number, None) if kind == "f" else (None, number)

        actor, actor_warband = split(data.get("actor"))
        target, target_warband = split(data.get("target"))
        return EventReport(
            turn=data["turn"],
            kind=data["kind"],
            actor_id=actor,
            actor_warband_id=actor_warband,
            target_id=target,
            target_warband_id=target_warband,
            weapon=data.get("weapon") or "",
            voluntary=bool(data.get("voluntary")),
        )


class ReportForm(forms.Form):
    """The battle report: scenario, result, per warband its fighters and routs; notes.
    Events come in a formset of ``EventForm`` rows."""

    scenario = forms.CharField(
        label=_("Scenario"),
        max_length=120,
        required=False,
        widget=forms.TextInput(attrs={"list": "scenarios"}),
    )
    is_draw = forms.BooleanField(label=_("Draw"), required=False)
    winners = forms.MultipleChoiceField(
        label=_("Who won"), required=False, widget=forms.CheckboxSelectMultiple
    )
    notes = forms.CharField(
        label=_("Notes"), widget=forms.Textarea(attrs={"rows": 3}), required=False
    )

    def __init__(self, *args, participants, fighters_by_warband, with_reason=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.participants = participants
        self.fields["winners"].choices = [(str(p.warband_id), p.warband.name) for p in participants]
        self.warband_fields = []
        for participant in participants:
            warband = participant.warband
            prefix = f"w{warband.pk}"
            fighters = fighters_by_warband.get(warband.pk, [])
            self.fields[f"{prefix}_fighters"] = forms.MultipleChoiceField(
                label=_("Fighters who took part"),
                choices=[
                    (str(f.pk), f"{f.name} · {f.fighter_type.display_name}") for f in fighters
                ],
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
            self.fields[f"{prefix}_routed"] = forms.BooleanField(label=_("Routed"), required=False)
            self.fields[f"{prefix}_voluntary"] = forms.BooleanField(
                label=_("Voluntary rout"), required=False
            )
            self.warband_fields.append(
                (
                    warband,
                    self[f"{prefix}_fighters"],
                    self[f"{prefix}_routed"],
                    self[f"{prefix}_voluntary"],
                )  # fmt: skip
            )
        if with_reason:
            self.fields["reason"] = forms.CharField(
                label=_("Reason for the correction"), widget=forms.Textarea(attrs={"rows": 2})
            )

    side_choices = staticmethod(side_choices)

    def to_report(self, events: list[EventReport]) -> Report:
        data = self.cleaned_data
        return Report(
            scenario=data.get("scenario") or "",
            is_draw=bool(data.get("is_draw")),
            winner_ids=[int(w) for w in data.get("winners") or []],
            participants=[
                ParticipantReport(
                    warband_id=p.warband_id,
                    routed=bool(data.get(f"w{p.warband_id}_routed")),
                    voluntary_rout=bool(data.get(f"w{p.warband_id}_voluntary")),
                    fighter_ids=[int(f) for f in data.get(f"w{p.warband_id}_fighters") or []],
                )
                for p in self.participants
            ],
            events=events,
            notes=data.get("notes") or "",
        )
