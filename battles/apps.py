from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = _("Campaigns and battles")

    def ready(self) -> None:
        # Imported here, not at the top: these modules import models, which Django loads only
        # after the app registry is built; ready() is the hook Django runs once that is done.
        from battles.campaigns.house_rules import validate_warband_in_campaigns
        from battles.campaigns.roster import undo_refused_while_a_battle_is_under_way
        from warbands import constraints

        from . import tasks  # noqa: F401 - registers the tasks services queue by name
        from .notifications import tasks as notification_tasks  # noqa: F401 - likewise

        # Every roster change of a warband in an active campaign must keep its house rules.
        constraints.register(validate_warband_in_campaigns)
        # … and a roster change is not taken back while a battle it shaped is under way.
        constraints.register_undo_guard(undo_refused_while_a_battle_is_under_way)
