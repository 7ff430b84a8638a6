from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WarbandsConfig(AppConfig):
    name = "warbands"
    verbose_name = _("Warbands")
