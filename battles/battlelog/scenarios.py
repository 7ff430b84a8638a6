"""The scenarios a battle may be fought under: the campaign's list, or a default one.

An organiser may give the campaign its own list under ``Campaign.tables["scenarios"]`` (items
``{"name": …, "attacker_defender": bool}``; :func:`campaign_scenarios_set`, the campaign's
scenarios page), or its content pack may (its ``tables`` section); until then the battle log
offers the engine's list (``DEFAULT_SCENARIOS``), in the Mordheim manner. Names are the
game's words (Spanish); those that set one warband attacking and the other defending need the
attacker named before the battle starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from battles.campaigns import services
from battles.campaigns.selectors import campaign_tables
from battles.models import SCENARIOS, Campaign
from rules.engine.campaign_tables import DEFAULT_SCENARIOS


def campaign_scenarios(campaign: Campaign) -> list[dict[str, Any]]:
    """The campaign's scenarios (its own list, else its pack's, else the default list):
    ``{name, attacker_defender}``."""
    own = campaign_tables(campaign).get("scenarios")
    if isinstance(own, list) and own:
        items = [
            {
                "name": str(item["name"])[:120],
                "attacker_defender": bool(item.get("attacker_defender")),
            }
            for item in own
            if isinstance(item, Mapping) and item.get("name")
        ]
        if items:
            return items
    return [dict(item) for item in DEFAULT_SCENARIOS]


def pick_scenario(campaign: Campaign, name: str) -> dict[str, Any]:
    """The scenario named (case and spaces do not matter), or a 400 listing the choices."""
    wanted = " ".join(name.split()).casefold()
    choices = campaign_scenarios(campaign)
    for item in choices:
        if item["name"].casefold() == wanted:
            return item
    raise ValidationError(
        {
            "scenario": [
                _("Choose a scenario of the campaign: %(choices)s.")
                % {"choices": ", ".join(item["name"] for item in choices)}
            ]
        }
    )


def scenario_suggestions(campaign: Campaign) -> list[str]:
    """The names a form suggests for a battle of ``campaign``: its list or its pack's when it
    has one (the names its organiser wrote); else the default list in the reader's language."""
    names = [scenario["name"] for scenario in campaign_scenarios(campaign)]
    if names == [scenario["name"] for scenario in DEFAULT_SCENARIOS]:
        return [str(name) for name in SCENARIOS]
    return names


def own_scenarios(campaign: Campaign) -> list[dict[str, Any]]:
    """The campaign's own list as its organiser left it (empty: it uses the default one)."""
    own = (campaign.tables or {}).get("scenarios")
    return [dict(item) for item in own] if isinstance(own, list) else []


@transaction.atomic
def campaign_scenarios_set(
    *, campaign: Campaign, by, scenarios: Sequence[Mapping[str, Any]]
) -> Campaign:
    """Replace the campaign's scenario list (empty: back to the default list), keeping its
    other table overrides; checked by the house rules (``battles.campaigns.house_rules``) like
    any edit of the campaign's tables. Locks the campaign row."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    tables = {k: v for k, v in (campaign.tables or {}).items() if k != "scenarios"}
    if scenarios:
        tables["scenarios"] = [
            {"name": str(item["name"]), "attacker_defender": bool(item.get("attacker_defender"))}
            for item in scenarios
        ]
    return services.campaign_update(campaign=campaign, by=by, changes={"tables": tables})
