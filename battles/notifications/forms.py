from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from battles.models.notifications import Event, NotificationPreference, Webhook


class PreferenceForm(forms.Form):
    email_mode = forms.ChoiceField(
        label=_("E-mail"),
        choices=NotificationPreference.Mode.choices,
        widget=forms.RadioSelect,
    )
    email_events = forms.MultipleChoiceField(
        label=_("Events I get by e-mail"),
        choices=Event.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    language = forms.ChoiceField(label=_("Language of the e-mails"), choices=settings.LANGUAGES)


class WebhookForm(forms.Form):
    url = forms.URLField(label=_("URL"), max_length=500, assume_scheme="https")
    format = forms.ChoiceField(label=_("Format"), choices=Webhook.Format.choices)
