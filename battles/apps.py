from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = _("Campaigns and battles")

    def ready(self) -> None:
        from warbands import constraints

        from .house_rules import validate_warband_in_campaigns

        # Every roster change of a warband in an active campaign must keep its house rules.
        constraints.register(validate_warband_in_campaigns)
